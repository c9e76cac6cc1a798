/** Jest runs the TypeScript sources directly; `npm test` type-checks the whole tree first. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n suite installs and starts n8n: it has its own command (npm run test:e2e, docs/testing.md), not `npm test`.
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	// Every test's temporary files go to one folder per run, which must be empty at the end.
	globalSetup: '<rootDir>/test/support/globalSetup.ts',
	globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
	// A hang guard, not a speed check: on a loaded machine a test that starts eslint, tsc, npm or a server
	// runs many times slower than alone, and a figure that needs a quiet machine belongs in a bench.
	testTimeout: 180000,
	maxWorkers: 2,
};
