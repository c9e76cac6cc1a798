/**
 * A refused post in n8n 2.41's executions list, as a user sees it in headless Chromium (reaching
 * 127.0.0.1 only): a published Cloopen Trigger with a Secret gets a forged post and a genuine
 * notification; the workflow's executions list and the global one mark the refused post's execution
 * Error and the notification's Success, each read from the list's own status element.
 */
import { randomUUID } from 'node:crypto';

import { launchChromium, type Browser } from './browser/chromium';
import { byTestId, signIn } from './browser/editor';
import { ARTIFACTS } from './browser/screenshots';
import { ACKNOWLEDGEMENT, notificationBody } from '../../emulator';
import { waitUntilEnded } from '../../dev/n8n/executionReadBack';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { triggerToNoOp } from '../../dev/n8n/triggerToNoOp';
import { postNotification, statusAndText } from '../support/postNotification';

const SECRET = 'e2e-editor-list-secret-0123456789';

let n8n: N8nInstance;
let browser: Browser;

beforeAll(async () => {
	n8n = await startSharedN8n();
	browser = await launchChromium(ARTIFACTS);
	await signIn(browser.page, n8n.baseUrl, n8n.owner);
});

afterAll(async () => {
	await browser?.close();
	await n8n?.stop();
});

async function post(url: string) {
	const body = notificationBody({
		kind: 'voiceVerify',
		to: '13800000002',
		callSid: randomUUID().replace(/-/g, ''),
		result: '2',
		duration: 0,
	});
	return statusAndText(await postNotification(url, body));
}

test('the refused post is Error and the notification Success in the executions lists', async () => {
	const webhookId = randomUUID();
	const workflowId = await n8n.importWorkflow({
		...triggerToNoOp('Refused posts in the list', webhookId, { secret: SECRET }),
		settings: { executionOrder: 'v1' },
	});
	await n8n.activateWorkflow(workflowId);
	const url = n8n.webhookUrl(`${webhookId}/cloopen`);

	expect((await post(`${url}?secret=forged-guess`)).status).toBe(401);
	const refused = await n8n.waitForExecution({ workflowId, status: 'error' }, 60_000);
	expect(await post(`${url}?secret=${SECRET}`)).toEqual({ status: 200, text: ACKNOWLEDGEMENT });
	await waitUntilEnded(n8n, workflowId, 2, 60_000);
	const genuine = await n8n.waitForExecution(
		{ workflowId, afterId: refused.id, status: 'success' },
		60_000,
	);

	const { page } = browser;
	// The workflow's own list (its Executions tab): each card's link carries the status it shows.
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}/executions`);
	const cards = page.locator('.execution-card a[data-test-execution-status]');
	await cards.nth(1).waitFor();
	const shown: Record<string, string | null> = {};
	for (const card of await cards.all()) {
		const id = (await card.getAttribute('href'))?.split('/').pop() ?? '';
		shown[id] = await card.getAttribute('data-test-execution-status');
	}
	expect(shown).toEqual({ [refused.id]: 'error', [genuine.id]: 'success' });
	// The refused one's card has the list's error style (its red mark), the genuine one's not.
	const cardOf = (id: string) =>
		page.locator('.execution-card').filter({ has: page.locator(`a[href$="/${id}"]`) });
	expect(await cardOf(refused.id).getAttribute('class')).toMatch(/_error_/);
	expect(await cardOf(genuine.id).getAttribute('class')).not.toMatch(/_error_/);
	await browser.screenshot('refused-posts-workflow-executions', page.locator('body'));

	// The global executions list, newest first (this n8n has run nothing else): each row's status column.
	await page.goto(`${n8n.baseUrl}/home/executions`);
	const rows = byTestId(page, 'global-execution-list-item');
	await rows.nth(1).waitFor();
	const statuses = (await byTestId(rows, 'execution-status').allInnerTexts()).map((text) =>
		text.trim(),
	);
	expect(statuses).toEqual([expect.stringMatching(/^Success/), expect.stringMatching(/^Error/)]);
	await browser.screenshot('refused-posts-global-executions', page.locator('body'));

	expect(browser.pageErrors).toEqual([]);
	for (const refusedUrl of browser.refusedRequests)
		expect(new URL(refusedUrl).hostname).not.toBe('127.0.0.1');
});
