/** The kernel's own version: plugins declare the range they support in `flowhost`. */
export const FLOWHOST_VERSION = '1.0.0';
