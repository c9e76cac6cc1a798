/**
 * One-Time Code as a user meets it in n8n 2.41's editor: the two example flows imported as they ship
 * (a screenshot of each for the README, in docs/images/ when CLOOPEN_SCREENSHOTS=1 asks), and the
 * Send and Check forms, whose fields follow Counts Kept In. Headless Debian Chromium through
 * playwright-core, 127.0.0.1 only.
 */
import { launchChromium, type Browser } from './browser/chromium';
import { ARTIFACTS, readmeImagePath } from './browser/screenshots';
import { byTestId, canvasNode, choose, fieldLabels, signIn } from './browser/editor';
import { importExample } from '../../dev/examples';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { useEmulator } from '../support/useEmulator';

const OWN_STORE = 'My Own Store (I Pass the Counts)';

const { emulator, credentials } = useEmulator({}, { resetEachTest: false });
let n8n: N8nInstance;
let browser: Browser;
let credentialId: string;

beforeAll(async () => {
	n8n = await startN8nWithRepoPackage();
	credentialId = await n8n.createCredential(
		'cloopenApi',
		'Cloopen account',
		credentials({ appId: emulator.appId }),
	);
	browser = await launchChromium(ARTIFACTS);
	// Leaving a workflow whose form was changed asks before unloading: the answer is leave.
	browser.page.on('dialog', (dialog) => void dialog.accept());
	await signIn(browser.page, n8n.baseUrl, n8n.owner);
});

afterAll(async () => {
	await browser?.close();
	await n8n?.stop();
});

/** Imports the example as it ships, opens it on the canvas and waits for its Cloopen node. */
async function openExample(file: string, cloopenNode: string) {
	const id = await n8n.importWorkflow(importExample(file), {
		credentials: { cloopenApi: credentialId },
	});
	const { page } = browser;
	await page.goto(`${n8n.baseUrl}/workflow/${id}`);
	await canvasNode(page, cloopenNode).waitFor();
	return page;
}

/** Labels of the node's form after it is opened on the canvas; the panel stays open. */
async function openForm(name: string): Promise<string[]> {
	const { page } = browser;
	await canvasNode(page, name).dblclick();
	await byTestId(page, 'ndv').waitFor();
	return await fieldLabels(page);
}

describe('One-Time Code in the editor', () => {
	test.each([
		['one-time-code-request.json', 'Send Code', 'One-Time Code: Send'],
		['one-time-code-check.json', 'Check Code', 'One-Time Code: Check'],
	])(
		'%s opens as Webhook → %s → Respond to Webhook, the subtitle in words',
		async (file, cloopenNode, subtitle) => {
			const page = await openExample(file, cloopenNode);
			for (const name of ['Webhook', cloopenNode, 'Respond to Webhook'])
				await canvasNode(page, name).waitFor();
			expect(await canvasNode(page, cloopenNode).innerText()).toContain(subtitle);
			// Zoom to fit ("1"), so the screenshot shows the whole flow and its note.
			await page.keyboard.press('1');
			await page.waitForTimeout(500);
			const image = file.replace('.json', '');
			await browser.screenshot(`otc-${image}`);
			await page.screenshot({ path: readmeImagePath(image) });
		},
	);

	test('Send keeps the counts in the Data Table by default; My Own Store swaps the table and the caps for Recent Sends', async () => {
		const page = await openExample('one-time-code-request.json', 'Send Code');
		const kept = await openForm('Send Code');
		expect(kept).toEqual(
			expect.arrayContaining([
				'Counts Kept In',
				'Data Table Name',
				'To',
				'Max Codes per Number',
				'Resend Cooldown (Seconds)',
				'Max Codes per Hour (All Numbers)',
			]),
		);
		expect(kept).not.toContain('Recent Sends');
		// The per-country cap shows only once other countries are allowed.
		expect(kept).not.toContain('Max Codes per Hour per Country Code');

		await choose(page, 'store', OWN_STORE);
		const own = await fieldLabels(page);
		expect(own).toContain('Recent Sends');
		for (const gone of ['Data Table Name', 'Max Codes per Hour (All Numbers)'])
			expect({ gone, shown: own.includes(gone) }).toEqual({ gone, shown: false });
		await byTestId(page, 'ndv-close-button').click();
	});

	test('Check asks only for the number and the code with the Data Table, and for the counts with My Own Store', async () => {
		const page = await openExample('one-time-code-check.json', 'Check Code');
		const kept = await openForm('Check Code');
		expect(kept).toEqual(
			expect.arrayContaining(['Counts Kept In', 'Data Table Name', 'Code Entered', 'Phone Number']),
		);
		const counts = ['Verification', 'Attempts So Far', 'Already Used'];
		for (const hidden of counts)
			expect({ hidden, shown: kept.includes(hidden) }).toEqual({ hidden, shown: false });

		await choose(page, 'store', OWN_STORE);
		expect(await fieldLabels(page)).toEqual(expect.arrayContaining(counts));
		await byTestId(page, 'ndv-close-button').click();
	});

	test('nothing failed in the page, and nothing left 127.0.0.1', () => {
		expect(browser.pageErrors).toEqual([]);
		for (const url of browser.refusedRequests) expect(new URL(url).hostname).not.toBe('127.0.0.1');
		expect(n8n.networkAttempts()).toEqual([]);
	});
});
