import { describeTamperCases } from '../helpers/tamper-cases.js';
import { NODE_ASSERT_RUNNERS } from '../helpers/tamper-js-runners.js';

// The cases of tamper-expectations.test.ts for node:test and mocha: their failures are node:assert's
// text and node:test's reporter, which change with Node's major (the Node matrix runs this file).

describeTamperCases(NODE_ASSERT_RUNNERS);
