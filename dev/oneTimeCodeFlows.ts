import { tableKeysOf } from '../nodes/Cloopen/resources/oneTimeCode/rules/tableKeys';
import { bucketOf, KEY_ROW } from '../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { entryKeyOf } from '../nodes/Cloopen/resources/oneTimeCode/store/entryKey';
import { loadExample, WEBHOOK_TYPE } from './examples';
import type { N8nInstance } from './n8n/n8nInstance';
import { storedNodes, productionPath } from './n8n/productionPath';

export type Answer = { status: number; body: Record<string, unknown> };

export interface KeptCodeFlows {
	request(to: string): Promise<Answer>;
	check(to: string, code: string): Promise<Answer>;
	/** Rows in the node's table (its buckets). */
	rowCount(): Promise<number>;
	/** How many rows the node's table holds for each bucket. */
	rowsPerBucket(): Promise<Map<number, number>>;
	/** Deletes by hand, through n8n's REST API, the row that holds this number (in its one form); its bucket. */
	deleteRowOf(number: string): Promise<number>;
	/** Deletes the node's table by hand, through n8n's REST API. */
	deleteTable(): Promise<void>;
	/** Where n8n serves the two Webhooks, under /webhook/: the webhookIds it gave them on import. */
	paths: { request: string; check: string };
}

/**
 * The two one-time-code examples as a user imports them (examples/one-time-code-request.json and
 * -check.json: Webhook → One-Time Code → Send or Check → Respond to Webhook, the counts kept by the
 * node in a Data Table of the project), published, with the Send node's settings changed as `send`
 * says and a table of their own (`prefix`). Each Webhook is asked at the URL n8n serves it at: the
 * examples ship an empty path and no webhookId, so that is the webhookId n8n gives it on this import,
 * read back from the workflow n8n stored (several sets of flows live side by side in one n8n).
 */
export async function setUpKeptCodeFlows(
	main: N8nInstance,
	credentialId: string,
	webhookBase: string,
	prefix: string,
	send: Record<string, unknown> = {},
	appId?: string,
): Promise<KeptCodeFlows> {
	const table = `${prefix} codes`;
	const paths: string[] = [];
	for (const [file, overrides] of [
		['one-time-code-request.json', send],
		['one-time-code-check.json', {}],
	] as const) {
		const workflow = loadExample(file, appId);
		workflow.name = `${prefix}: ${workflow.name}`;
		for (const node of workflow.nodes) {
			// As a user imports it: n8n makes the Webhook's webhookId, and so its URL.
			if (node.type === WEBHOOK_TYPE) delete node.webhookId;
			if (node.type === 'n8n-nodes-cloopen.cloopen')
				Object.assign(node.parameters, { dataTableName: table, ...overrides });
		}
		const id = await main.importWorkflow(workflow, { credentials: { cloopenApi: credentialId } });
		const webhooks = (await storedNodes(main, id)).filter((node) => node.type === WEBHOOK_TYPE);
		if (webhooks.length !== 1)
			throw new Error(`examples/${file}: ${webhooks.length} Webhook nodes`);
		paths.push(productionPath(webhooks[0]));
		await main.activateWorkflow(id);
	}
	const [requestPath, checkPath] = paths;
	const post = async (path: string, body: Record<string, unknown>): Promise<Answer> => {
		const response = await fetch(`${webhookBase}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const text = await response.text();
		let parsed: Record<string, unknown>;
		try {
			parsed = JSON.parse(text) as Record<string, unknown>;
		} catch {
			parsed = { text };
		}
		return { status: response.status, body: parsed };
	};
	const project = async () =>
		(await main.api<{ data: { id: string } }>('GET', '/projects/personal')).data.id;
	const tablePath = async () => {
		const projectId = await project();
		const tables = await main.api<{ data: { data: Array<{ id: string; name: string }> } }>(
			'GET',
			`/projects/${projectId}/data-tables?take=100`,
		);
		const found = tables.data.data.find((entry) => entry.name === table);
		return found ? `/projects/${projectId}/data-tables/${found.id}` : undefined;
	};
	/** Every row of the table, a page of 250 (n8n's most) at a time. */
	const allRows = async () => {
		const path = await tablePath();
		const rows: Array<{ id: number; bucket: number; book: string }> = [];
		for (let skip = 0; path; skip += 250) {
			const page = await main.api<{ data: { data: typeof rows } }>(
				'GET',
				`${path}/rows?take=250&skip=${skip}`,
			);
			rows.push(...page.data.data);
			if (page.data.data.length < 250) break;
		}
		return rows;
	};
	return {
		paths: { request: requestPath, check: checkPath },
		request: async (to) => await post(requestPath, { to }),
		check: async (to, code) => await post(checkPath, { to, code }),
		async rowCount() {
			const path = await tablePath();
			if (!path) return 0;
			const rows = await main.api<{ data: { count: number } }>('GET', `${path}/rows?take=1`);
			return rows.data.count;
		},
		async rowsPerBucket() {
			const counts = new Map<number, number>();
			for (const row of await allRows()) counts.set(row.bucket, (counts.get(row.bucket) ?? 0) + 1);
			return counts;
		},
		async deleteRowOf(number) {
			// The table holds no number in clear: its row is found with the table's own key.
			const rows = await allRows();
			const secret = (
				JSON.parse(String(rows.find((entry) => entry.bucket === KEY_ROW)?.book ?? '{}')) as {
					key?: unknown;
				}
			).key;
			const keys = tableKeysOf(secret);
			const place = keys && entryKeyOf(number, keys.bucket);
			const row = rows.find(
				(entry) =>
					keys &&
					entry.bucket === bucketOf(number, keys.bucket) &&
					String(entry.book).includes(`"${place}"`),
			);
			if (!row) throw new Error(`no row of the table holds ${number}`);
			const filter = {
				type: 'and',
				filters: [{ columnName: 'id', condition: 'eq', value: row.id }],
			};
			const path = await tablePath();
			await main.api('DELETE', `${path}/rows?filter=${encodeURIComponent(JSON.stringify(filter))}`);
			return row.bucket;
		},
		async deleteTable() {
			const path = await tablePath();
			if (path) await main.api('DELETE', path);
		},
	};
}
