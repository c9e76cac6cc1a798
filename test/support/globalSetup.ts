import { makeTestRunTempFolder } from './testRunTempFolder';

/** jest globalSetup: runs once, before the workers start, so they inherit the run's temp folder. */
export default function globalSetup(): void {
	makeTestRunTempFolder();
}
