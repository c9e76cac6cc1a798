/**
 * What `npm run test:compat` runs against each n8n version by default: the real-n8n test files that
 * need nothing but n8n and the package (no PostgreSQL/Redis, no browser, no model server): the package
 * loads and every example runs (cloopen.e2e: every operation, the trigger's exact acknowledgement and
 * the failure-alert loop), Test connection, what the trigger admits (closed until opened, its Refused
 * output, acknowledged once stored), Wait for Call Result, On Error: Continue (using error output),
 * Retry On Fail and sockets, the resend after a lone refusal, and One-Time Code with its counts in the
 * node's Data Table (n8n's Data Table node run by the node through this.executeWorkflow).
 * `--all` runs every *.e2e.test.ts instead; `--files a,b` names files.
 */
export const COMPAT_SUITE = [
	'test/e2e/cloopen.e2e.test.ts',
	'test/e2e/credentialTest.e2e.test.ts',
	'test/e2e/triggerAdmission.e2e.test.ts',
	'test/e2e/waitForResult.e2e.test.ts',
	'test/e2e/errorOutput.e2e.test.ts',
	'test/e2e/reliability.e2e.test.ts',
	'test/e2e/loneRefusal.e2e.test.ts',
	'test/e2e/keptCodes.e2e.test.ts',
];

/**
 * What CI runs on the oldest n8n the README claims (`npm run test:compat -- --ci-smoke`): the package
 * loads, every example runs, the trigger gives its exact acknowledgement.
 */
export const CI_SMOKE = ['test/e2e/cloopen.e2e.test.ts'];

/** The oldest n8n version in scripts/claimedN8nVersions.json (the versions the README claims). */
export const oldestClaimed = (claimed: Array<{ n8n: string }>): string =>
	claimed.map(({ n8n }) => n8n).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))[0];

/**
 * The Node a version runs on unless VERSION@NODE says otherwise: 22 for n8n 1.x (its engines allow
 * 20.19 to 24.x; the 1.x line was used on 20 and 22), 24 for 2.x (2.41 requires it; 2.0 allows 20.19 up).
 */
export function defaultNodeFor(n8nVersion: string): string {
	return n8nVersion.startsWith('1.') ? '22.23.3' : '24.21.0';
}
