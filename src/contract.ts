// The node's view of its contract; the helpers behind it live in src/contract/.
export { projectRoot } from './contract/root.js';
export { loadContract } from './contract/document.js';
