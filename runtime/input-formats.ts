// The string formats of the generated request validators (generated/validators-*.js import this): ajv-formats'
// full formats, except `date-time`, which is an instant the API can store (runtime/instant.ts), not only a shape.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isInstant } from './instant.js';

export const inputFormats = { ...fullFormats, 'date-time': isInstant };
