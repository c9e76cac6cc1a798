import type { OperationContext } from '../types';
import { DEFAULT_TABLE_NAME } from './fields/tableField';

/** Data Table Name, one line of text. */
export const readTableName = (context: OperationContext): string =>
	context.rules.required('dataTableName', context.param('dataTableName', DEFAULT_TABLE_NAME));

/** A number as a form posts it: text or digits; anything else (nothing, an object) reads as empty. */
export const typedNumber = (value: unknown): string =>
	typeof value === 'string'
		? value
		: typeof value === 'number' && Number.isFinite(value)
			? String(value)
			: '';
