/**
 * The trigger's one version. Not 1: n8n treats a webhook node at typeVersion exactly 1 as its legacy
 * Webhook node (it evaluates `options.binaryData` and parses every body before the node runs, on every
 * request, forged ones too), which costs each notification an expression isolate (docs/performance.md).
 */
export const TRIGGER_VERSION = 2;
