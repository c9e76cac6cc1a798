import type { N8nInstance } from '../../dev/n8n/n8nInstance';

/**
 * The two short one-time-code flows as a user builds them from the node panel, with the counts kept
 * by the node in a Data Table of the project: Webhook → One-Time Code → Send → Respond to Webhook,
 * and Webhook → One-Time Code → Check → Respond to Webhook. The answer's HTTP status is the node's
 * `httpStatus`; nothing else is written by hand but mapping the number and the code.
 */
export type Answer = { status: number; body: Record<string, unknown> };

const webhook = (path: string) => ({
	parameters: { httpMethod: 'POST', path, responseMode: 'responseNode', options: {} },
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position: [0, 0],
});

const respond = {
	parameters: {
		respondWith: 'json',
		responseBody: '={{ $json }}',
		options: { responseCode: '={{ $json.httpStatus }}' },
	},
	name: 'Respond to Webhook',
	type: 'n8n-nodes-base.respondToWebhook',
	typeVersion: 1.1,
	position: [440, 0],
};

function flow(name: string, path: string, cloopen: Record<string, unknown>) {
	return {
		name,
		nodes: [
			webhook(path),
			{
				parameters: { resource: 'oneTimeCode', ...cloopen },
				name: 'One-Time Code',
				type: 'n8n-nodes-cloopen.cloopen',
				typeVersion: 2,
				position: [220, 0],
				credentials: { cloopenApi: { id: '1', name: 'Cloopen' } },
			},
			respond,
		],
		connections: {
			Webhook: { main: [[{ node: 'One-Time Code', type: 'main', index: 0 }]] },
			'One-Time Code': { main: [[{ node: 'Respond to Webhook', type: 'main', index: 0 }]] },
		},
		settings: {},
	};
}

export interface KeptCodeFlows {
	request(to: string): Promise<Answer>;
	check(to: string, code: string): Promise<Answer>;
	/** Rows in the node's table (its buckets). */
	rowCount(): Promise<number>;
}

export async function setUpKeptCodeFlows(
	main: N8nInstance,
	credentialId: string,
	webhookBase: string,
	prefix: string,
	send: Record<string, unknown> = {},
): Promise<KeptCodeFlows> {
	const table = `${prefix} codes`;
	const workflows = [
		flow(`${prefix}: request a code`, `${prefix}/request`, {
			operation: 'send',
			dataTableName: table,
			to: '={{ $json.body.to }}',
			...send,
		}),
		flow(`${prefix}: check a code`, `${prefix}/check`, {
			operation: 'check',
			dataTableName: table,
			phoneNumber: '={{ $json.body.to }}',
			codeEntered: '={{ $json.body.code }}',
		}),
	];
	for (const workflow of workflows) {
		const id = await main.importWorkflow(workflow as never, {
			credentials: { cloopenApi: credentialId },
		});
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
