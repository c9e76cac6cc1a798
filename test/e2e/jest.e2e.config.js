/**
 * The end-to-end suite: the package inside a real n8n (docs/testing.md). Separate from the main
 * jest config because it needs the n8n install (globalSetup runs dev/n8n/installN8n.sh; minutes when the cache
 * is cold); the files of one worker share an n8n (dev/n8n/sharedN8n.ts).
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
	// Each worker runs its own n8n; on 2 cores two at once is the most that helps.
	maxWorkers: 2,
};
