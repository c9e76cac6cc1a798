import type { ServerResponse } from 'node:http';

import type { EmulatorState } from './state';

export const BILLS_PREFIX = '/bills/';

/**
 * Step two of docs/platform.md#bill-records: GET {downUrl}?token={token}. Outside the REST API, so no signature; the
 * token is the check code. A wrong or missing token is HTTP 403 (the platform's answer is not shown).
 */
export function serveBill(
	state: EmulatorState,
	method: string,
	url: URL,
	response: ServerResponse,
): void {
	const bill = state.bills.get(url.searchParams.get('token') ?? '');
	if (method !== 'GET' || !bill || url.pathname !== `${BILLS_PREFIX}${bill.name}`) {
		response.writeHead(method !== 'GET' ? 405 : 403, {
			'Content-Type': 'text/plain;charset=utf-8',
		});
		response.end(method !== 'GET' ? 'GET only' : 'invalid check code');
		return;
	}
	response.writeHead(200, {
		'Content-Type': 'text/csv;charset=utf-8',
		'Content-Disposition': `attachment; filename="${bill.name}"`,
	});
	response.end(bill.content);
}
