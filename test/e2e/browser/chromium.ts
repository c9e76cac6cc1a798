import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); nothing downloads a browser of its own. */
export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	// Every name but 127.0.0.1 fails to resolve: the browser cannot reach anything else by name.
	'--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export interface Browser {
	page: Page;
	context: BrowserContext;
	/** requests the page tried beyond 127.0.0.1 (all refused), e.g. the editor asking npm about a package */
	refusedRequests: string[];
	/** uncaught errors in the page */
	pageErrors: string[];
	/** saves a screenshot of the page (or of one element) as <folder>/<name>.png and returns its path */
	screenshot(name: string, element?: ReturnType<Page['locator']>): Promise<string>;
	close(): Promise<void>;
}

/** How long a page load or a wait for an element may take before the test fails. */
const BROWSER_WAIT_MS = 180_000;

/**
 * Headless Chromium with a fresh profile, allowed to reach 127.0.0.1 only: any other request is
 * aborted before it leaves the browser and listed in `refusedRequests`.
 */
export async function launchChromium(screenshotFolder: string): Promise<Browser> {
	const profile = mkdtempSync(join(tmpdir(), 'chromium-e2e-'));
	mkdirSync(screenshotFolder, { recursive: true });
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: FLAGS,
		viewport: { width: 1280, height: 800 },
		locale: 'en-US',
		colorScheme: 'light',
	});
	const refusedRequests: string[] = [];
	await context.route('**/*', async (route) => {
		const url = new URL(route.request().url());
		if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:')
			return await route.continue();
		refusedRequests.push(url.href);
		return await route.abort('blockedbyclient');
	});
	const page = context.pages()[0] ?? (await context.newPage());
	// A hang guard, not a speed check: n8n's editor loads many times slower on a loaded machine than
	// playwright's 30 s default allows, and each test has its own jest timeout anyway.
	context.setDefaultTimeout(BROWSER_WAIT_MS);
	context.setDefaultNavigationTimeout(BROWSER_WAIT_MS);
	const pageErrors: string[] = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));
	return {
		page,
		context,
		refusedRequests,
		pageErrors,
		async screenshot(name, element) {
			const path = join(screenshotFolder, `${name}.png`);
			await (element ?? page).screenshot({ path });
			return path;
		},
		async close() {
			await context.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}
