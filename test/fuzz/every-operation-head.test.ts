// Every operation fuzzed from its schemas at the latest version (test/fuzz/fuzz-every-operation.ts).
import { headVersion } from '../../runtime/versions.js';
import { fuzzAt } from './fuzz-every-operation.js';

fuzzAt(headVersion());
