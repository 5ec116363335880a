/** The `cluster` settings a server reads (src/engine/config). */
import type { GraphdbConfig } from '../../engine/config/index.js';

/** `cluster.*`. */
export type ClusterConfigSettings = GraphdbConfig['cluster'];
