import { loadExample } from './examples';
import type { N8nInstance } from './n8n/n8nInstance';

export type Answer = { status: number; body: Record<string, unknown> };

export interface KeptCodeFlows {
	request(to: string): Promise<Answer>;
	check(to: string, code: string): Promise<Answer>;
	/** Rows in the node's table (its buckets). */
	rowCount(): Promise<number>;
}

/**
 * The two one-time-code examples as a user imports them (examples/one-time-code-request.json and
 * -check.json: Webhook → One-Time Code → Send or Check → Respond to Webhook, the counts kept by the
 * node in a Data Table of the project), published under paths of their own (`prefix`), with the
 * Send node's settings changed as `send` says.
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
	for (const [file, path, overrides] of [
		['one-time-code-request.json', `${prefix}/request`, send],
		['one-time-code-check.json', `${prefix}/check`, {}],
	] as const) {
		const workflow = loadExample(file, appId);
		workflow.name = `${prefix}: ${workflow.name}`;
		for (const node of workflow.nodes) {
			if (node.type === 'n8n-nodes-base.webhook') node.parameters.path = path;
			if (node.type === 'n8n-nodes-cloopen.cloopen')
				Object.assign(node.parameters, { dataTableName: table, ...overrides });
		}
		const id = await main.importWorkflow(workflow, { credentials: { cloopenApi: credentialId } });
		await main.activateWorkflow(id);
	}
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
	return {
		request: async (to) => await post(`${prefix}/request`, { to }),
		check: async (to, code) => await post(`${prefix}/check`, { to, code }),
		async rowCount() {
			const project = await main.api<{ data: { id: string } }>('GET', '/projects/personal');
			const tables = await main.api<{ data: { data: Array<{ id: string; name: string }> } }>(
				'GET',
				`/projects/${project.data.id}/data-tables?take=100`,
			);
			const found = tables.data.data.find((entry) => entry.name === table);
			if (!found) return 0;
			const rows = await main.api<{ data: { count: number } }>(
				'GET',
				`/projects/${project.data.id}/data-tables/${found.id}/rows?take=1`,
			);
			return rows.data.count;
		},
	};
}
