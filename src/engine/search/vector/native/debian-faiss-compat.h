// faiss-node 0.5.1 expects faiss >= 1.7.4, which declares `faiss::idx_t` at namespace scope.
// Debian 12 ships faiss 1.7.3, where the type is `faiss::Index::idx_t`; alias it.
#include <faiss/Index.h>
namespace faiss {
using idx_t = Index::idx_t;
}
