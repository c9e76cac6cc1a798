import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { listOf } from '../common/answerShape';
import { appIdOf } from '../common/appId';
import { ONLY_READS } from '../common/effects';
import { appIdField } from '../common/fields';
import { withIsoDates } from '../common/platformDate';
import type { OperationContext, OperationDefinition } from '../types';
import { INCLUDE_SECRETS_DESCRIPTION, withoutSecrets } from './subAccountAnswer';

/** docs/platform.md#sub-accounts: offset is 1 to 100 rows per query. */
const MAX_PAGE_SIZE = 100;
/** Return All reads at most this many pages (50,000 sub-accounts), whatever the server says. */
export const RETURN_ALL_MAX_PAGES = 500;

/** Get Many leaves secrets out unless told to. */
const listOptions: INodeProperties[] = [
	{
		displayName: 'Include Secrets',
		name: 'includeSecrets',
		type: 'boolean',
		default: false,
		description: INCLUDE_SECRETS_DESCRIPTION,
	},
	{
		displayName: 'Start At',
		name: 'startNo',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Index of the first sub-account to return (0 is the first)',
	},
];

const fields: INodeProperties[] = [
	appIdField,
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
];

/**
 * Reads GetSubAccounts pages from `startNo` until `limit`, the reported totalCount, a short or empty
 * page, or a page that brings no sub-account not seen already (a server that ignores startNo). A
 * server that sends full, new pages forever is stopped at RETURN_ALL_MAX_PAGES with an error, so
 * that a run neither hangs nor silently returns a cut list.
 */
async function readPages(
	context: OperationContext,
	query: { appId: string; startNo: number; limit: number },
) {
	const found: IDataObject[] = [];
	const seen = new Set<string>();
	let startNo = query.startNo;
	for (let pages = 0; found.length < query.limit; pages++) {
		if (pages === RETURN_ALL_MAX_PAGES) {
			throw new NodeOperationError(
				context.executeFunctions.getNode(),
				`Sub-Account → Get Many stopped after ${RETURN_ALL_MAX_PAGES} pages (${found.length} sub-accounts) without reaching the end of the list`,
				{
					itemIndex: context.itemIndex,
					description: `The platform kept returning full pages without a totalCount that ends them. Turn off Return All and read in parts with Limit and Start At (e.g. Start At ${startNo}).`,
				},
			);
		}
		const offset = Math.min(MAX_PAGE_SIZE, query.limit - found.length);
		const response = await context.request({
			operation: 'Sub-Account → Get Many',
			method: 'POST',
			path: 'GetSubAccounts',
			body: { appId: query.appId, startNo: String(startNo), offset: String(offset) },
			xml: { root: 'SubAccount' },
			arrayElements: ['SubAccount'],
		});
		const page = listOf(response, 'SubAccount');
		const fresh = page.filter((entry) => {
			const key = String(entry.subAccountSid ?? JSON.stringify(entry));
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		});
		found.push(...fresh);
		startNo += page.length;
		const total = Number(response.totalCount);
		if (page.length < offset || fresh.length === 0 || (Number.isFinite(total) && startNo >= total))
			break;
	}
	return found;
}

export const getAll: OperationDefinition = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many sub-accounts',
	description: 'List the sub-accounts of an application',
	fields,
	options: listOptions,
	effect: ONLY_READS,
	asTool: 'runs',
	secretsInAnswer: true,
	resultIds: ['subAccountSid', 'friendlyName'],
	async execute(context) {
		const { rules } = context;
		const appId = await appIdOf(context);
		const returnAll = context.param<boolean>('returnAll', false);
		const limit = returnAll
			? Infinity
			: Number(rules.wholeNumber('limit', context.param('limit', 50)));
		const options = context.param<IDataObject>('options', {});
		const startNo = Number(rules.wholeNumber('startNo', options.startNo ?? 0));

		const found = await readPages(context, { appId, startNo, limit });
		const include = options.includeSecrets === true;
		return found
			.slice(0, limit)
			.map((entry) => ({ json: withIsoDates(withoutSecrets(entry, include)) }));
	},
};
