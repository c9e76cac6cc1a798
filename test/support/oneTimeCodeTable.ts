import type { IDataObject } from 'n8n-workflow';

import { clearMemoryDataTables } from '../../dev/engine/memoryDataTables';
import { runCloopen } from './runCloopen';
import type { EmulatorInTest } from './useEmulator';

/**
 * A Data Table of its own for each test, named `<name> <n>`, in the harness's memory Data Tables
 * emptied before each test: the node's process memory knows the tables it has seen. Returns the
 * name of the current test's table.
 */
export function useTablePerTest(name: string): () => string {
	let table = '';
	let tables = 0;
	beforeEach(() => {
		clearMemoryDataTables();
		table = `${name} ${++tables}`;
	});
	return () => table;
}

/**
 * Runs One-Time Code's `operation` on the test's table with the emulator's application and
 * credentials, through n8n's engine; gives what runCloopen gives.
 */
export const oneTimeCodeOn =
	(
		table: () => string,
		{ emulator, credentials }: Pick<EmulatorInTest, 'emulator' | 'credentials'>,
	) =>
	async (operation: string, parameters: IDataObject = {}) =>
		await runCloopen(
			{
				resource: 'oneTimeCode',
				operation,
				appId: emulator.appId,
				dataTableName: table(),
				...parameters,
			},
			{ credentials: credentials() },
		);
