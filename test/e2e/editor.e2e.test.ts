/**
 * The nodes as a user meets them in n8n's editor: n8n 2.41 with this package installed, driven in
 * headless Chromium (Debian's, through playwright-core) that reaches 127.0.0.1 only. It signs in as
 * the owner, opens the node panel, searches "Cloopen" and the words users search for, adds the
 * trigger and the action node (its form with one Options collection), opens the main
 * operations and the credential dialog, and checks what the user reads there. Screenshots go outside
 * the repository (browser/screenshots.ts); the three the README shows to docs/images/ only when
 * CLOOPEN_SCREENSHOTS=1 asks.
 */
import type { Locator, Page } from 'playwright-core';

import { launchChromium, type Browser } from './browser/chromium';
import { ARTIFACTS, readmeImagePath } from './browser/screenshots';
import {
	byTestId,
	canvasNode,
	choose,
	fieldLabels,
	openPanelEntry,
	optionNames,
	panelItemNames,
	parameterPanel,
	signIn,
} from './browser/editor';
import { CLOSED_NOTICE } from '../../nodes/CloopenTrigger/triggerFields';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { SEARCH_TERMS } from '../support/searchTerms';
import { useEmulator } from '../support/useEmulator';

const README = 'https://github.com/n8n-nodes-cloopen/n8n-nodes-cloopen';
const README_SECTION = `${README}#the-cloopen-node`;
const TRIGGER_README_SECTION = `${README}#the-cloopen-trigger-node`;

const readmeScreenshot = async (name: string, element: Locator) =>
	await element.screenshot({ path: readmeImagePath(name) });

/**
 * The names the "Add …" list of the open node's collection number `index` offers (0: the first
 * collection on the form), in their order; `whileOpen` runs before the list is closed again.
 */
async function collectionChoices(
	page: Page,
	index: number,
	whileOpen?: () => Promise<unknown>,
): Promise<string[]> {
	await byTestId(parameterPanel(page), 'collection-parameter-add').nth(index).click();
	const options = page.locator('[data-test-id="collection-parameter-option"]:visible');
	await options.first().waitFor();
	const names = (await options.allInnerTexts()).map((text) => text.trim());
	await whileOpen?.();
	await page.keyboard.press('Escape');
	return names;
}

/** Adds the entry of that name to the open node's collection number `index`. */
async function addToCollection(page: Page, index: number, name: string): Promise<void> {
	await byTestId(parameterPanel(page), 'collection-parameter-add').nth(index).click();
	await page
		.locator('[data-test-id="collection-parameter-option"]:visible')
		.getByText(name, { exact: true })
		.click();
}

const { emulator, credentials } = useEmulator({}, { resetEachTest: false });
let n8n: N8nInstance;
let browser: Browser;

beforeAll(async () => {
	n8n = await startSharedN8n();
	await n8n.createCredential(
		'cloopenApi',
		'Cloopen account',
		credentials({ appId: emulator.appId }),
	);
	browser = await launchChromium(ARTIFACTS);
	await signIn(browser.page, n8n.baseUrl, n8n.owner);
});

afterAll(async () => {
	await browser?.close();
	await n8n?.stop();
});

describe("the Cloopen nodes in n8n 2.41's editor", () => {
	// A failed step must not leave a dialog over the canvas for the next one.
	afterEach(async () => {
		for (const close of ['credential-edit-dialog', 'ndv']) {
			if (await byTestId(browser.page, close).isVisible())
				await browser.page.keyboard.press('Escape');
		}
		if (await byTestId(browser.page, 'ndv').isVisible())
			await byTestId(browser.page, 'ndv-close-button').click();
	});

	test('the node panel finds Cloopen for the words users search for, in English and in Chinese', async () => {
		const { page } = browser;
		await page.goto(`${n8n.baseUrl}/workflow/new`);
		for (const term of SEARCH_TERMS) {
			await byTestId(page, 'canvas-add-button').click();
			await openPanelEntry(page, term, 'Cloopen');
			await page.keyboard.press('Escape');
			await byTestId(page, 'node-creator').waitFor({ state: 'hidden' });
		}
	});

	test('the node panel shows one Cloopen entry described as both nodes, and names its triggers in words', async () => {
		const { page } = browser;
		await page.goto(`${n8n.baseUrl}/workflow/new`);
		await byTestId(page, 'canvas-add-button').click();
		const entry = await openPanelEntry(page, 'Cloopen', 'Cloopen');
		expect(await byTestId(entry, 'node-creator-item-description').innerText()).toBe(
			'Send voice codes, voice notifications and template SMS with Cloopen, and start workflows when a call ends or an SMS status report arrives',
		);
		await browser.screenshot('01-node-panel-search', byTestId(page, 'node-creator'));

		await entry.click();
		await page.getByText('On voice verification ended', { exact: true }).waitFor();
		// The search result above stays in the panel while it slides to the entry's list.
		expect((await panelItemNames(page)).filter((name) => name !== 'Cloopen')).toEqual([
			'On any Cloopen notification',
			'On another Cloopen notification',
			'On SMS status report',
			'On voice notification ended',
			'On voice verification ended',
		]);
		await browser.screenshot('02-node-panel-triggers', byTestId(page, 'node-creator'));
		await readmeScreenshot('node-panel-triggers', byTestId(page, 'node-creator'));
	});

	test('the trigger, added as "On voice verification ended", says where its URL goes and shows its events in words', async () => {
		const { page } = browser;
		await page.getByText('On voice verification ended', { exact: true }).click();
		await byTestId(page, 'ndv').waitFor();
		expect(await byTestId(page, 'trigger-header').innerText()).toBe(
			'Pull in call results from Cloopen',
		);
		// How to get a test event, in the trigger panel's hint (shown at once, not behind More info)
		// and in the notice above the parameters.
		const testEvent =
			"For a test event, click 'Execute step', copy the Test URL (Webhook URLs, above the parameters) into Result URL (respUrl) of a Cloopen Voice Verification or Voice Notification (Additional Fields) and place that call";
		// The trigger panel: its header and, below it, the hints.
		const triggerPanel = byTestId(page, 'trigger-header').locator('xpath=../..');
		expect(await triggerPanel.innerText()).toContain(testEvent);
		const panelText = await parameterPanel(page).innerText();
		expect(panelText).toContain(testEvent);
		expect(panelText).toContain('Once the workflow is published, paste the Production URL there');
		// Added now, it is closed until opened: the panel says why and the three ways, with their costs.
		expect(panelText).toContain(CLOSED_NOTICE);
		expect(await fieldLabels(page)).toEqual(
			expect.arrayContaining([
				'Events',
				'Call Results',
				'Secret',
				'Allowed IP Addresses',
				'Verify With Platform',
				'Ignore Repeated Notifications',
			]),
		);
		expect(await byTestId(parameterPanel(page), 'parameter-input-events').innerText()).toContain(
			'Voice Verification Ended',
		);
		const events = await optionNames(page, 'events');
		expect(events).toEqual([
			'Any Event',
			'Other Notification',
			'SMS Status Report',
			'Voice Notification Ended',
			'Voice Verification Ended',
		]);
		// The Docs link opens the README's section on the trigger, its anchor intact.
		const docs = byTestId(page, 'ndv').locator('a[href*="github.com"]').first();
		expect(await docs.getAttribute('href')).toBe(TRIGGER_README_SECTION);
		await browser.screenshot('03-trigger-panel', byTestId(page, 'ndv'));
		await readmeScreenshot('trigger-panel', byTestId(page, 'ndv'));

		// Verify With Platform asks with credentials, which n8n then shows just above the switch, where
		// its description points.
		const verify = byTestId(parameterPanel(page), 'parameter-input-verifyWithPlatform');
		await verify.click();
		const credentials = byTestId(parameterPanel(page), 'node-credentials-select');
		await credentials.waitFor();
		const [credentialsAt, verifyAt] = [await credentials.boundingBox(), await verify.boundingBox()];
		expect(credentialsAt!.y).toBeLessThan(verifyAt!.y);
		await verify.click();
		await credentials.waitFor({ state: 'hidden' });

		// Listening for a test event: the canvas says where to paste the Test URL.
		await byTestId(page, 'trigger-execute-button').click();
		await byTestId(page, 'ndv-close-button').click();
		const trigger = canvasNode(page, 'Cloopen Trigger');
		// The subtitle is short enough for the canvas to show it whole.
		const subtitle = trigger.getByText('Voice code', { exact: true });
		await subtitle.waitFor();
		expect(await subtitle.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
			true,
		);
		await page
			.getByText(
				'Waiting for a call result: paste the Test URL into Result URL (respUrl) of a Cloopen call',
			)
			.first()
			.waitFor();
		await browser.screenshot('04-trigger-listening');

		// A forged post to the Test URL: refused (403), and the editor shows why: the run ends in Error
		// at the trigger (Refused Posts as shipped), its message naming the refusal and what to do.
		const workflowId = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1];
		const { data: workflow } = await n8n.api<{
			data: { nodes: Array<{ type: string; webhookId?: string }> };
		}>('GET', `/workflows/${workflowId}`);
		const { webhookId } = workflow.nodes.find(
			(node) => node.type === 'n8n-nodes-cloopen.cloopenTrigger',
		)!;
		const forged = await fetch(`${n8n.baseUrl}/webhook-test/${webhookId}/cloopen?secret=guess-x9`, {
			method: 'POST',
			headers: { 'content-type': 'text/plain' },
			body: '<Request><action>VoiceCode</action><number>13800000000</number><callSid>ab12</callSid><state>0</state></Request>',
		});
		expect(forged.status).toBe(403);
		await trigger.dblclick();
		const output = byTestId(page, 'output-panel');
		await output.getByText('Refused post (closed)', { exact: false }).first().waitFor();
		const shown = await output.innerText();
		expect(shown).toContain('This trigger refuses every request until you set a Secret');
		expect(shown).not.toContain('guess-x9');
		await browser.screenshot('05-trigger-refused', byTestId(page, 'ndv'));
	});

	test('the Cloopen node, added as "Send a template SMS": subtitle, App ID from the credentials, Template Data rows', async () => {
		const { page } = browser;
		// The first of the trigger's two outputs: Notification (the second is Refused).
		await byTestId(canvasNode(page, 'Cloopen Trigger'), 'canvas-handle-plus').first().click();
		const entry = await openPanelEntry(page, 'Cloopen', 'Cloopen');
		await entry.click();
		// The panel lists the actions as they load: wait for each of the three read here.
		const expected = [
			'Send a template SMS',
			'Call a number and read a verification code',
			'Call a number and play a message',
		];
		for (const action of expected) await page.getByText(action, { exact: true }).first().waitFor();
		expect(await panelItemNames(page)).toEqual(expect.arrayContaining(expected));
		await page.getByText('Send a template SMS', { exact: true }).click();
		await byTestId(page, 'ndv').waitFor();

		expect(
			await byTestId(parameterPanel(page), 'node-credentials-select').locator('input').inputValue(),
		).toBe('Cloopen account');
		const appId = byTestId(parameterPanel(page), 'parameter-input-appId');
		expect(await appId.locator('input').getAttribute('placeholder')).toBe(
			'Default App ID from the credentials',
		);
		expect(await parameterPanel(page).innerText()).toContain(
			'Leave empty to use the Default App ID of the selected credentials',
		);
		await page.getByText('Add Placeholder Value', { exact: true }).click();
		await page.getByText('Add Placeholder Value', { exact: true }).click();
		const labels = await fieldLabels(page);
		expect(labels.slice(0, 6)).toEqual([
			'Resource',
			'Operation',
			'App ID',
			'To',
			'Template ID',
			'Template Data',
		]);
		expect(labels.filter((label) => label === 'Placeholder Value')).toHaveLength(2);
		// The run's settings are not at the top; one Options collection ends the form.
		for (const setting of ['Body Format', 'Parallel Requests', 'Timeout (Seconds)'])
			expect(labels).not.toContain(setting);
		// n8n's own settings (Always Output Data, …) follow the node's fields.
		expect(labels[labels.indexOf('Options') + 1]).toBe('Always Output Data');
		const options = await collectionChoices(page, 0, async () => {
			await browser.screenshot('05-sms-node', byTestId(page, 'ndv'));
			await readmeScreenshot('sms-node', byTestId(page, 'ndv'));
		});
		expect(options).toEqual([
			'Body Format',
			'Include Numbers per Batch',
			'Maximum Parallel Requests',
			'Parallel Requests',
			'Timeout (Seconds)',
		]);

		// Inside Options, Requests at Once takes the place of Maximum Parallel Requests once Fixed is chosen.
		await addToCollection(page, 0, 'Parallel Requests');
		await choose(page, 'parallelMode', 'Fixed');
		const offered = await collectionChoices(page, 0);
		expect(offered).toContain('Requests at Once');
		expect(offered).not.toContain('Maximum Parallel Requests');

		// The node's Docs link opens the README, not an npm page.
		const docs = byTestId(page, 'ndv').locator('a[href*="github.com"]').first();
		expect(await docs.getAttribute('href')).toBe(README_SECTION);
		await byTestId(page, 'ndv-close-button').click();
		await expect(canvasNode(page, 'Send a template SMS').innerText()).resolves.toContain(
			'SMS: Send Template',
		);
	});

	test("Voice Notification → Call reads the text before the audio files, in the user's words", async () => {
		const { page } = browser;
		await canvasNode(page, 'Send a template SMS').dblclick();
		await byTestId(page, 'ndv').waitFor();
		await choose(page, 'resource', 'Voice Notification');
		const contents = await optionNames(page, 'content');
		expect(contents).toEqual(['Audio Files', 'Text and Audio Files', 'Text to Speech']);
		await choose(page, 'content', 'Text and Audio Files');
		const labels = await fieldLabels(page);
		const at = (label: string) => labels.indexOf(label);
		expect(at('Text')).toBeGreaterThan(at('Content'));
		expect(at('Audio Files')).toBeGreaterThan(at('Text'));
		expect(at('Audio File Source')).toBeGreaterThan(at('Audio Files'));
		expect(await parameterPanel(page).innerText()).not.toMatch(/play mode/i);
		await byTestId(page, 'ndv-close-button').click();
		// n8n renames a node it named after its action when the action changes.
		await expect(
			canvasNode(page, 'Call a number and play a message').innerText(),
		).resolves.toContain('Voice Notification: Call');

		await canvasNode(page, 'Call a number and play a message').dblclick();
		await choose(page, 'resource', 'Voice Verification');
		expect(await optionNames(page, 'operation')).toEqual(['Send Code', 'Send Custom Audio Code']);
		expect(await fieldLabels(page)).toEqual(
			expect.arrayContaining(['App ID', 'To', 'Verification Code']),
		);
		// No Language (English is not supported), Max Call Time with its unit, and no
		// Result URL to fill in while Wait for Call Result sets it.
		const additional = await collectionChoices(page, 0);
		expect(additional).toEqual(
			expect.arrayContaining(['Max Call Time (Seconds)', 'Result URL', 'Play Times']),
		);
		expect(additional).not.toContain('Language');
		await byTestId(parameterPanel(page), 'parameter-input-waitForResult').click();
		const whileWaiting = await collectionChoices(page, 0);
		expect(whileWaiting).not.toContain('Result URL');
		expect(whileWaiting).toContain('Play Times');
		await byTestId(page, 'ndv-close-button').click();
		await expect(
			canvasNode(page, 'Call a number and read a verification code').innerText(),
		).resolves.toContain('Voice Verification: Send Code');
		await browser.screenshot('06-canvas');
	});

	test('the credential dialog asks for what the console shows, and the Default App ID', async () => {
		const { page } = browser;
		await canvasNode(page, 'Call a number and read a verification code').dblclick();
		await byTestId(parameterPanel(page), 'credential-edit-button').click();
		const dialog = byTestId(page, 'credential-edit-dialog');
		await dialog.waitFor();
		await browser.screenshot('07-credentials-opening');
		// The fields render after the dialog opens: wait for the first one.
		await dialog.getByText('Account SID').first().waitFor();
		const text = await dialog.innerText();
		for (const label of [
			'Account SID',
			'Auth Token',
			'Default App ID',
			'Server',
			'Base URL',
			'Ignore SSL Issues (Insecure)',
			// The notice that says what a bare network code from Test connection means.
			'ECONNREFUSED (nothing answers at that host and port)',
		]) {
			expect({ label, shown: text.includes(label) }).toEqual({ label, shown: true });
		}
		// Its docs link ("… or read the docs" beside n8n's assistant, else "Read our docs") opens the
		// README's table of what to enter.
		const docs = dialog.getByRole('link', { name: /^(read our )?docs$/i });
		expect(await docs.getAttribute('href')).toBe(`${README}#credentials`);
		await browser.screenshot('07-credentials', byTestId(page, 'editCredential-modal'));
	});

	test('nothing failed in the page, and nothing left 127.0.0.1', () => {
		expect(browser.pageErrors).toEqual([]);
		for (const url of browser.refusedRequests) expect(new URL(url).hostname).not.toBe('127.0.0.1');
		expect(n8n.networkAttempts()).toEqual([]);
	});
});
