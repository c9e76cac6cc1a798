/**
 * One-Time Code as a user meets it in n8n 2.41's editor: the two example flows imported as they ship
 * (a screenshot of each for the README, in docs/images/ when CLOOPEN_SCREENSHOTS=1 asks), the
 * Send and Check forms, with the node's Data Table and no other store, and Webhook → One-Time Code → Respond to
 * Webhook built from the panel with defaults, published and asked: each answer with its HTTP status
 * and only the caller fields. Headless Debian Chromium through playwright-core, 127.0.0.1 only.
 */
import { launchChromium, type Browser } from './browser/chromium';
import { ARTIFACTS, readmeImagePath } from './browser/screenshots';
import {
	byTestId,
	canvasNode,
	choose,
	fieldLabels,
	openPanelEntry,
	parameterPanel,
	signIn,
} from './browser/editor';
import { importExample, WEBHOOK_TYPE } from '../../dev/examples';
import { storedNodes, productionPath } from '../../dev/n8n/productionPath';
import { ANSWER_FIELDS } from '../../nodes/Cloopen/resources/oneTimeCode/answers';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { useEmulator } from '../support/useEmulator';
import { standaloneCodes } from '../support/standaloneCodes';

const { emulator, credentials } = useEmulator({}, { resetEachTest: false });
let n8n: N8nInstance;
let browser: Browser;
let credentialId: string;

beforeAll(async () => {
	n8n = await startSharedN8n();
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

	test('Send keeps the counts in the Data Table, the only store: no store to choose, no counts to pass', async () => {
		await openExample('one-time-code-request.json', 'Send Code');
		const kept = await openForm('Send Code');
		expect(kept).toEqual(
			expect.arrayContaining([
				'Data Table Name',
				'To',
				'Max Codes per Number',
				'Resend Cooldown (Seconds)',
				'Max Codes per Hour (All Numbers)',
			]),
		);
		for (const gone of ['Counts Kept In', 'Recent Sends'])
			expect({ gone, shown: kept.includes(gone) }).toEqual({ gone, shown: false });
		// The per-country cap shows only once other countries are allowed.
		expect(kept).not.toContain('Max Codes per Hour per Country Code');
		await byTestId(browser.page, 'ndv-close-button').click();
	});

	test('Check asks only for the table, the number and the code', async () => {
		await openExample('one-time-code-check.json', 'Check Code');
		const kept = await openForm('Check Code');
		expect(kept).toEqual(
			expect.arrayContaining(['Data Table Name', 'Code Entered', 'Phone Number']),
		);
		for (const gone of ['Counts Kept In', 'Verification', 'Attempts So Far', 'Already Used'])
			expect({ gone, shown: kept.includes(gone) }).toEqual({ gone, shown: false });
		await byTestId(browser.page, 'ndv-close-button').click();
	});

	test('Webhook → One-Time Code → Respond to Webhook built from the panel with defaults answers each outcome with its HTTP status and only the caller fields', async () => {
		const { page } = browser;
		await page.goto(`${n8n.baseUrl}/workflow/new`);
		// The Webhook, with the one setting n8n asks for when a Respond to Webhook node follows.
		await byTestId(page, 'canvas-add-button').click();
		await (await openPanelEntry(page, 'Webhook', 'Webhook')).click();
		await byTestId(page, 'ndv').waitFor();
		await choose(page, 'responseMode', "Using 'Respond to Webhook' Node");
		await byTestId(page, 'ndv-close-button').click();

		// One-Time Code → Send after it: the credential (the only one, chosen by n8n) and the number.
		await byTestId(canvasNode(page, 'Webhook'), 'canvas-handle-plus').first().click();
		await (await openPanelEntry(page, 'Cloopen', 'Cloopen')).click();
		await page.getByText('Send a one-time code', { exact: true }).first().click();
		await byTestId(page, 'ndv').waitFor();
		expect(
			await byTestId(parameterPanel(page), 'node-credentials-select').locator('input').inputValue(),
		).toBe('Cloopen account');
		await byTestId(parameterPanel(page), 'parameter-input-to').locator('input').click();
		await page.keyboard.insertText('{{ $json.query.to }}');
		// The panel says who answers, and what a Respond to Webhook after it must not do.
		const notice = 'A Respond to Webhook node after it must not set its own body';
		await parameterPanel(page).getByText(notice, { exact: false }).waitFor();
		expect(await fieldLabels(page)).toContain('Answer the Caller');
		await browser.screenshot('otc-built-send', byTestId(page, 'ndv'));
		await byTestId(page, 'ndv-close-button').click();

		// Respond to Webhook after it, as added.
		await byTestId(canvasNode(page, 'Send a one-time code'), 'canvas-handle-plus').first().click();
		await (await openPanelEntry(page, 'Respond to Webhook', 'Respond to Webhook')).click();
		await byTestId(page, 'ndv').waitFor();
		await byTestId(page, 'ndv-close-button').click();
		await page.keyboard.press('Control+s');
		await page.waitForURL(
			(url) => /\/workflow\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/new'),
		);
		await browser.screenshot('otc-built-flow');

		const id = /\/workflow\/([^/?#]+)/.exec(page.url())![1];
		const nodes = await storedNodes(n8n, id);
		const sendNode = nodes.find((node) => node.type === 'n8n-nodes-cloopen.cloopen')!;
		expect(sendNode).toMatchObject({
			typeVersion: 1,
			parameters: expect.objectContaining({ to: '={{ $json.query.to }}' }),
		});
		await n8n.activateWorkflow(id);
		const url = `${n8n.baseUrl}/webhook/${productionPath(nodes.find((node) => node.type === WEBHOOK_TYPE)!)}`;
		const ask = async (to: string) => {
			const response = await fetch(`${url}?to=${to}`);
			const body = (await response.json()) as Record<string, unknown>;
			return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
		};
		const to = '13800000800';
		const onlyCallerFields = (body: Record<string, unknown>) =>
			Object.keys(body).filter((key) => !(ANSWER_FIELDS as readonly string[]).includes(key));

		const sent = await ask(to);
		expect(sent).toEqual({
			status: 200,
			retryAfter: null,
			body: { status: 'sent', httpStatus: 200, expiresAt: expect.any(String) },
		});
		const call = emulator.calls().find((entry) => entry.to === to)!;
		// Inside the resend cooldown: refused, with when to ask again.
		const refused = await ask(to);
		expect(refused).toEqual({
			status: 429,
			retryAfter: expect.stringMatching(/^\d+$/),
			body: { status: 'refused', httpStatus: 429, retryAfterSeconds: expect.any(Number) },
		});
		expect(refused.retryAfter).toBe(String(refused.body.retryAfterSeconds));
		for (const answer of [sent, refused]) {
			expect(onlyCallerFields(answer.body)).toEqual([]);
			const said = JSON.stringify(answer);
			for (const secret of [to, call.callSid]) expect(said).not.toContain(secret);
			const code = String(call.fields.verifyCode);
			expect(standaloneCodes(said, code)).not.toContain(code);
		}
		expect(emulator.calls().filter((entry) => entry.to === to)).toHaveLength(1);
		await n8n.deactivateWorkflow(id);
	});

	test('nothing failed in the page, and nothing left 127.0.0.1', () => {
		expect(browser.pageErrors).toEqual([]);
		for (const url of browser.refusedRequests) expect(new URL(url).hostname).not.toBe('127.0.0.1');
		expect(n8n.networkAttempts()).toEqual([]);
	});
});
