import type { ResourceDefinition } from '../types';
import { getInfo } from './getInfo';

export const account: ResourceDefinition = {
	name: 'Account',
	value: 'account',
	description: 'Main account information and balance',
	defaultOperation: 'getInfo',
	operations: [getInfo],
};
