import { quietIpServernameWarning } from './quietIpServernameWarning';
import { makeTestRunTempFolder } from './testRunTempFolder';

/** jest globalSetup: runs once, before the workers start, so they inherit what is set here. */
export default function globalSetup(): void {
	makeTestRunTempFolder();
	quietIpServernameWarning();
}
