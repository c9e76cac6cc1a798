import type { Route } from '../route';

export const accountInfo: Route = {
	method: 'GET',
	path: 'AccountInfo',
	mainAccountOnly: true,
	handle({ state }) {
		const { friendlyName, type, status, dateCreated, dateUpdated, balance } = state.account;
		return {
			body: {
				Account: {
					friendlyName,
					type,
					status,
					dateCreated,
					dateUpdated,
					balance: balance.toFixed(3),
					subBalance: '0',
				},
			},
		};
	},
};
