import type { ResourceDefinition } from '../types';
import { getResult } from './getResult';
import { getState } from './getState';

export const call: ResourceDefinition = {
	name: 'Call',
	value: 'call',
	description: 'State and result of a voice call',
	defaultOperation: 'getState',
	operations: [getState, getResult],
};
