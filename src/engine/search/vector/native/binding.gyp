{
  "targets": [
    {
      "target_name": "faiss-node",
      "sources": ["src/faiss.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-std=c++17", "-O2", "-fopenmp", "-fexceptions", "-frtti", "-include", "../debian-faiss-compat.h"],
      "libraries": ["-lfaiss", "-lopenblas", "-lgomp"]
    }
  ]
}
