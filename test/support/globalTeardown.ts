import { removeTestRunTempFolder } from './testRunTempFolder';

/** jest globalTeardown: fails the run if a test left anything in the temp folder. */
export default function globalTeardown(): void {
	const leftovers = removeTestRunTempFolder();
	if (leftovers.length > 0) {
		throw new Error(
			`tests left ${leftovers.length} item(s) in the temporary folder (now removed): ${leftovers.join(', ')}`,
		);
	}
}
