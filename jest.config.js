/** Jest runs the TypeScript sources directly; `npm test` type-checks the whole tree first. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	testTimeout: 30000,
	maxWorkers: 2,
};
