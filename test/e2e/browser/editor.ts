import type { Locator, Page } from 'playwright-core';

/**
 * The parts of n8n 2.41's editor a user meets when adding the Cloopen nodes, found by the
 * data-test-id attributes n8n's own end-to-end tests use.
 */
export const byTestId = (page: Page | Locator, id: string) =>
	page.locator(`[data-test-id="${id}"]`);

/** Signs in on n8n's sign-in page, as a user does. */
export async function signIn(
	page: Page,
	baseUrl: string,
	owner: { email: string; password: string },
): Promise<void> {
	await page.goto(`${baseUrl}/signin`);
	await byTestId(page, 'emailOrLdapLoginId').locator('input').fill(owner.email);
	await byTestId(page, 'password').locator('input').fill(owner.password);
	await byTestId(page, 'form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/** Types into the node panel's search and opens the entry with this name. */
export async function openPanelEntry(
	page: Page,
	search: string,
	entryName: string,
): Promise<Locator> {
	const panel = byTestId(page, 'node-creator');
	await panel.waitFor();
	await page.keyboard.type(search);
	const entry = byTestId(panel, 'item-iterator-item').filter({
		has: byTestId(page, 'node-creator-item-name').getByText(entryName, { exact: true }),
	});
	await entry.first().waitFor();
	return entry.first();
}

/** The names listed in the node panel (entries, triggers or actions), in their order. */
export async function panelItemNames(page: Page): Promise<string[]> {
	return await byTestId(byTestId(page, 'node-creator'), 'node-creator-item-name').allInnerTexts();
}

/** The open node's parameter panel (NDV). */
export const parameterPanel = (page: Page) => byTestId(byTestId(page, 'ndv'), 'node-parameters');

/** Labels of the open node's fields, top to bottom, as shown. */
export async function fieldLabels(page: Page): Promise<string[]> {
	const labels = await byTestId(parameterPanel(page), 'input-label').allInnerTexts();
	// A label's element also holds the Fixed/Expression switch and the value: its first line is the label.
	return labels.map((label) => label.split('\n')[0].trim()).filter((label) => label !== '');
}

/** Picks an option of a dropdown field of the open node by its shown name. */
export async function choose(page: Page, parameter: string, option: string): Promise<void> {
	await byTestId(parameterPanel(page), `parameter-input-${parameter}`).click();
	const options = page.getByRole('option');
	await options.first().waitFor();
	// An option's text is its name, then its description on the next line.
	const index = (await options.allInnerTexts()).findIndex(
		(text) => text.split('\n')[0].trim() === option,
	);
	if (index < 0) throw new Error(`${parameter} offers no option named "${option}"`);
	await options.nth(index).click();
}

/** The shown names of a dropdown field's options (opens and closes it). */
export async function optionNames(page: Page, parameter: string): Promise<string[]> {
	await byTestId(parameterPanel(page), `parameter-input-${parameter}`).click();
	const options = page.getByRole('option');
	await options.first().waitFor();
	const names = (await options.allInnerTexts()).map((text) => text.split('\n')[0].trim());
	await page.keyboard.press('Escape');
	return names;
}

/** A node on the canvas, by its name. */
export const canvasNode = (page: Page, name: string) =>
	byTestId(page, 'canvas-node').filter({ has: page.getByText(name, { exact: true }) });
