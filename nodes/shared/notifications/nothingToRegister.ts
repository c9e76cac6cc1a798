import type { IHookFunctions } from 'n8n-workflow';

/**
 * webhookMethods for a webhook that nothing has to register: Cloopen has no API to add or remove
 * callback URLs (the URL travels in each call's respUrl), so the webhook always "exists" and creating
 * or deleting it changes nothing. Used by the trigger and by the action node's resume webhook.
 */
export const nothingToRegister = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async create(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async delete(this: IHookFunctions): Promise<boolean> {
			return true;
		},
	},
};
