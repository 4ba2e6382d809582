export { clamp, mean } from './math.js';
export { slugify, truncate } from './text.js';
