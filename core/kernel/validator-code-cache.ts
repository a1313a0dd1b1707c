// The public half lives in the SDK (the contract is the bottom layer); this keeps core's imports.
export * from '../../sdk/kernel/validator-code-cache.js';
