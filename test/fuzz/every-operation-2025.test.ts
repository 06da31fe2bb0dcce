// Every operation fuzzed from its schemas at 2025-01-01 (test/fuzz/fuzz-every-operation.ts).
import { fuzzAt } from './fuzz-every-operation.js';

fuzzAt('2025-01-01');
