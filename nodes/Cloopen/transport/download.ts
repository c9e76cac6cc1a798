import type { IExecuteFunctions } from 'n8n-workflow';

import { transportError, unreadableResponseError } from './errors';

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName: string;
}

/**
 * Second step of the bill record download (spec 4.12): GET {downUrl}?token={token}. The check code
 * authorises it, so it is not signed: the signature is not sent to what may be another host.
 */
export async function downloadBillFile(
	this: IExecuteFunctions,
	downUrl: string,
	token: string,
	itemIndex: number,
	tls: { skipCertificateValidation: boolean },
): Promise<DownloadedFile> {
	const operation = 'Bill Records → download the file';
	let response: { body: unknown; statusCode: number; headers: Record<string, string> };
	try {
		response = await this.helpers.httpRequest({
			method: 'GET',
			url: downUrl,
			qs: { token },
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			skipSslCertificateValidation: tls.skipCertificateValidation,
			timeout: 120_000,
		});
	} catch (error) {
		throw transportError(this.getNode(), error, { operation, itemIndex });
	}
	const data = Buffer.from(response.body as ArrayBuffer);
	if (response.statusCode >= 400) {
		throw unreadableResponseError(
			this.getNode(),
			'the file server refused the download (is the check code still valid?)',
			{ httpCode: response.statusCode, body: data.toString('utf8') },
			{ operation, itemIndex },
		);
	}
	const disposition = String(response.headers['content-disposition'] ?? '');
	const named = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
	const fromPath = new URL(downUrl).pathname.split('/').filter(Boolean).pop();
	return {
		data,
		mimeType: response.headers['content-type']?.split(';')[0],
		fileName: named ?? fromPath ?? 'bill-records',
	};
}
