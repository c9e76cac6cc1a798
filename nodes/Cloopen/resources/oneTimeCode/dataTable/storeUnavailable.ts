import { NodeOperationError, type INode } from 'n8n-workflow';

import { maskNumber } from '../rules/maskNumber';
import type { Refusal } from '../rules/sendRefusal';

/** How long to wait before asking a store that n8n refused (its Data Table size limit, a database error). */
const RETRY_SECONDS = 60;

/** n8n refusing the store, as a refusal for the caller (digits masked: they may be a number). */
export function storeUnavailable(error: unknown): Refusal {
	const said =
		error instanceof Error
			? ((error as { description?: string }).description ?? error.message)
			: String(error);
	return {
		rule: 'store unavailable',
		reason: `n8n could not use the one-time-code store (${maskNumber(String(said)).slice(0, 300)}); if it says the Data Table size limit is reached, free space in the project's Data Tables or raise N8N_DATA_TABLES_MAX_SIZE_BYTES`,
		retryAfterSeconds: RETRY_SECONDS,
	};
}

/** The store could not be used at all (not made, not readable): an error, and nothing was sent. */
export function storeError(node: INode, tableName: string, error: unknown, making?: string) {
	const said = `${(error as Error)?.message ?? String(error)}${making ? `; making the table: ${making}` : ''}`;
	return new NodeOperationError(
		node,
		`The one-time-code store, the Data Table "${tableName}", could not be used; nothing was sent`,
		{
			description: `n8n answered: ${said}. The node makes this table itself (columns bucket, version, book) in the workflow's project; check that the project may create Data Tables and that the table was not changed by hand.`,
		},
	);
}
