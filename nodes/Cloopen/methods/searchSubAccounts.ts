import {
	NodeOperationError,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchItems,
	type INodeListSearchResult,
} from 'n8n-workflow';

import { defaultAppIdOf } from '../../shared/platform/api';
import { cloopenRequest } from '../../shared/transport/request';

/** docs/platform.md#sub-accounts: at most 100 rows per GetSubAccounts request. */
const PAGE_SIZE = 100;
/** A filtered search reads on through pages with no match, up to this many per call of the list. */
const PAGES_PER_SEARCH = 10;
/** The list offers no more after this many entries, however the server answers. */
const MAX_LISTED = 10_000;

/** "startNo:first SID of the page just read", so the next call can tell a repeated page. */
const tokenFor = (startNo: number, firstSid: string) => `${startNo}:${firstSid}`;
function readToken(token: string | undefined): { startNo: number; previousFirst: string } {
	const [startNo, previousFirst = ''] = (token ?? '').split(':');
	const parsed = Number(startNo);
	return { startNo: Number.isInteger(parsed) && parsed >= 0 ? parsed : 0, previousFirst };
}

type EntryValue = (entry: IDataObject) => string;

/** The node's App ID as typed, else the Default App ID of its credentials. */
async function listedAppId(context: ILoadOptionsFunctions): Promise<string> {
	const own = String(context.getCurrentNodeParameter('appId') ?? '').trim();
	if (own.startsWith('=')) {
		throw new NodeOperationError(
			context.getNode(),
			'The list needs the App ID as a fixed value, not an expression',
			{
				description:
					'Type the App ID, or leave it empty to use the Default App ID of the credentials. You can also choose "By SID" or "By Name" and type the sub-account.',
			},
		);
	}
	if (own !== '') return own;
	const fallback = defaultAppIdOf(await context.getCredentials('cloopenApi'));
	if (fallback === '') {
		throw new NodeOperationError(context.getNode(), 'Enter an App ID to list its sub-accounts', {
			description:
				'The App ID field is empty and the credentials have no Default App ID. You can also choose "By SID" or "By Name" and type the sub-account.',
		});
	}
	return fallback;
}

/**
 * The application's sub-accounts (App ID from the same node), filtered by name. Without a filter one
 * page of 100 per call; with one, pages are read until something matches (or 10 pages), so a name on
 * page 7 is found without the user scrolling through 600 others.
 */
async function listSubAccounts(
	context: ILoadOptionsFunctions,
	valueOf: EntryValue,
	filter: string | undefined,
	paginationToken: string | undefined,
): Promise<INodeListSearchResult> {
	const appId = await listedAppId(context);
	const needle = (filter ?? '').toLowerCase();
	const results: INodeListSearchItems[] = [];
	const maxPages = needle ? PAGES_PER_SEARCH : 1;
	let { startNo, previousFirst } = readToken(paginationToken);
	let more: boolean;
	let pages = 0;
	do {
		const response = await cloopenRequest.call(context, {
			operation: 'Sub-Account list',
			method: 'POST',
			path: 'GetSubAccounts',
			format: 'json',
			body: { appId, startNo: String(startNo), offset: String(PAGE_SIZE) },
			xml: { root: 'SubAccount' },
		});
		const page = (Array.isArray(response.SubAccount) ? response.SubAccount : []) as IDataObject[];
		// A server that ignores startNo sends the same page again: that is the end of the list.
		const first = String(page[0]?.subAccountSid ?? '');
		if (first !== '' && first === previousFirst) {
			more = false;
			break;
		}
		previousFirst = first;
		for (const entry of page) {
			if (
				needle &&
				!String(entry.friendlyName ?? '')
					.toLowerCase()
					.includes(needle)
			)
				continue;
			results.push({
				name: `${entry.friendlyName ?? '(no name)'} (${entry.voipAccount ?? entry.subAccountSid})`,
				value: valueOf(entry),
			});
		}
		startNo += page.length;
		more =
			page.length === PAGE_SIZE &&
			startNo < Number(response.totalCount ?? Infinity) &&
			startNo < MAX_LISTED;
		pages++;
	} while (more && results.length === 0 && pages < maxPages);
	return { results, ...(more ? { paginationToken: tokenFor(startNo, previousFirst) } : {}) };
}

/** For Close: the entries' values are the sub-accounts' SIDs. */
export async function searchSubAccounts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await listSubAccounts(
		this,
		(entry) => String(entry.subAccountSid),
		filter,
		paginationToken,
	);
}

/** For Get by Name: the entries' values are the sub-accounts' friendly names. */
export async function searchSubAccountNames(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await listSubAccounts(
		this,
		(entry) => String(entry.friendlyName ?? ''),
		filter,
		paginationToken,
	);
}
