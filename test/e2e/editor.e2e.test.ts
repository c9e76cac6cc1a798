/**
 * The nodes as a user meets them in n8n's editor: n8n 2.41 with this package installed, driven in
 * headless Chromium (Debian's, through playwright-core) that reaches 127.0.0.1 only. It signs in as
 * the owner, opens the node panel, searches "Cloopen", adds the trigger and the action node, opens the
 * main operations and the credential dialog, and checks what the user reads there. Screenshots go to
 * test/e2e/artifacts/editor/ (or N8N_E2E_ARTIFACTS).
 */
import { join } from 'node:path';

import { launchChromium, type Browser } from './browser/chromium';
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
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { useEmulator } from '../support/useEmulator';

const ARTIFACTS = process.env.N8N_E2E_ARTIFACTS ?? join(__dirname, 'artifacts', 'editor');

const { emulator, credentials } = useEmulator({}, { resetEachTest: false });
let n8n: N8nInstance;
let browser: Browser;

beforeAll(async () => {
	n8n = await startN8nWithRepoPackage();
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
	});

	test('the trigger, added as "On voice verification ended", says where its URL goes and shows its events in words', async () => {
		const { page } = browser;
		await page.getByText('On voice verification ended', { exact: true }).click();
		await byTestId(page, 'ndv').waitFor();
		expect(await byTestId(page, 'trigger-header').innerText()).toBe(
			'Pull in call results from Cloopen',
		);
		const panelText = await parameterPanel(page).innerText();
		expect(panelText).toContain('Paste this node\'s URL into "Result URL (respUrl)"');
		expect(panelText).toContain(
			'the Test URL while you build the workflow, the Production URL once it is published',
		);
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
		await browser.screenshot('03-trigger-panel', byTestId(page, 'ndv'));

		// Listening for a test event: the canvas says where to paste the Test URL.
		await byTestId(page, 'trigger-execute-button').click();
		await byTestId(page, 'ndv-close-button').click();
		const trigger = canvasNode(page, 'Cloopen Trigger');
		await expect(trigger.innerText()).resolves.toContain('Voice verification ended');
		await page
			.getByText(
				'Waiting for a call result: paste the Test URL into Result URL (respUrl) of a Cloopen call',
			)
			.first()
			.waitFor();
		await browser.screenshot('04-trigger-listening');
		await byTestId(page, 'stop-execution-waiting-for-webhook-button').click();
	});

	test('the Cloopen node, added as "Send a template SMS": subtitle, App ID from the credentials, Template Data rows', async () => {
		const { page } = browser;
		await byTestId(canvasNode(page, 'Cloopen Trigger'), 'canvas-handle-plus').click();
		const entry = await openPanelEntry(page, 'Cloopen', 'Cloopen');
		await entry.click();
		const actions = await panelItemNames(page);
		expect(actions).toEqual(
			expect.arrayContaining([
				'Send a template SMS',
				'Call a number and read a verification code',
				'Call a number and play a message',
			]),
		);
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
		expect(labels.filter((label) => label === 'Value for {Row Number}')).toHaveLength(2);
		await browser.screenshot('05-sms-node', byTestId(page, 'ndv'));
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
		]) {
			expect({ label, shown: text.includes(label) }).toEqual({ label, shown: true });
		}
		await browser.screenshot('07-credentials', byTestId(page, 'editCredential-modal'));
	});

	test('nothing failed in the page, and nothing left 127.0.0.1', () => {
		expect(browser.pageErrors).toEqual([]);
		for (const url of browser.refusedRequests) expect(new URL(url).hostname).not.toBe('127.0.0.1');
		expect(n8n.networkAttempts()).toEqual([]);
	});
});
