import type { IWebhookDescription } from 'n8n-workflow';

/**
 * Where the platform posts a waiting call's result: n8n resumes an execution through a restart
 * webhook of the node it waits at, chosen by the path after the execution id. With the node's id
 * as that path, a notification reaches only this node while it waits; once a later node waits
 * instead, n8n finds no webhook for it and answers 404, so it resumes nothing.
 */
export const RESUME_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '={{ $nodeId }}',
		isFullPath: true,
		restartWebhook: true,
	},
	// Calls placed before the node id was part of the URL still wait for their notification there.
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
	},
];
