import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { cloopenRequest } from '../transport/request';

const PAGE_SIZE = 100;

/**
 * The resource locator's list of sub-accounts: the application's sub-accounts (App ID from the same
 * node), filtered by name, a page of 100 at a time.
 */
export async function searchSubAccounts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const appId = String(this.getCurrentNodeParameter('appId') ?? '').trim();
	if (appId === '') return { results: [] };
	const startNo = Number(paginationToken ?? 0);
	const response = await cloopenRequest.call(this, {
		operation: 'Sub-Account list',
		method: 'POST',
		path: 'GetSubAccounts',
		format: 'json',
		body: { appId, startNo: String(startNo), offset: String(PAGE_SIZE) },
		xml: { root: 'SubAccount' },
	});
	const page = (Array.isArray(response.SubAccount) ? response.SubAccount : []) as IDataObject[];
	const needle = (filter ?? '').toLowerCase();
	const results = page
		.filter((entry) => !needle || String(entry.friendlyName ?? '').toLowerCase().includes(needle))
		.map((entry) => ({
			name: `${entry.friendlyName ?? '(no name)'} (${entry.voipAccount ?? entry.subAccountSid})`,
			value: String(entry.subAccountSid),
		}));
	const next = startNo + page.length;
	const more = page.length === PAGE_SIZE && next < Number(response.totalCount ?? Infinity);
	return { results, ...(more ? { paginationToken: String(next) } : {}) };
}
