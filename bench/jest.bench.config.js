/**
 * Benchmarks that need a real n8n (queue mode): jest only starts them, with the n8n install of the
 * end-to-end suite; they print figures and assert only that the run completed.
 */
module.exports = {
	rootDir: '..',
	testEnvironment: 'node',
	roots: ['<rootDir>/bench'],
	testMatch: ['**/*.bench.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	globalSetup: '<rootDir>/dev/n8n/jestGlobalSetup.ts',
	globalTeardown: '<rootDir>/dev/n8n/jestGlobalTeardown.ts',
	testTimeout: 300000,
	maxWorkers: 1,
};
