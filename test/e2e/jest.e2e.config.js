/**
 * The end-to-end suite: the package inside a real n8n (docs/testing.md). Separate from the main
 * jest config because it needs the n8n install (globalSetup runs dev/n8n/installN8n.sh; minutes when the cache
 * is cold) and each test file starts n8n, which takes 20-30 s on 2 cores.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	globalSetup: '<rootDir>/dev/n8n/jestGlobalSetup.ts',
	globalTeardown: '<rootDir>/dev/n8n/jestGlobalTeardown.ts',
	testTimeout: 300000,
	// Each test file runs its own n8n; on 2 cores two at once is the most that helps.
	maxWorkers: 2,
};
