import type { IExecuteFunctions } from 'n8n-workflow';

import { AnswerBoundError, receiveWithinBounds, type ReceivedAnswer } from './answerBounds';
import { answerBoundError, redirectError, transportError, unreadableResponseError } from './errors';

interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName: string;
}

interface DownloadBounds {
	deadlineMs: number;
	maxBytes: number;
}

/**
 * Second step of the bill record download (docs/platform.md#bill-records): GET {downUrl}?token={token}. The check code
 * authorises it, so it is not signed: the signature is not sent to what may be another host. A
 * redirect is not followed either, so the check code goes only where the platform said.
 */
export async function downloadBillFile(
	this: IExecuteFunctions,
	downUrl: string,
	token: string,
	itemIndex: number,
	tls: { skipCertificateValidation: boolean },
	bounds: DownloadBounds,
): Promise<DownloadedFile> {
	const operation = 'Bill Records → download the file';
	let response: ReceivedAnswer;
	try {
		response = await receiveWithinBounds(
			async (options) => await this.helpers.httpRequest(options),
			{
				method: 'GET',
				url: downUrl,
				qs: { token },
				skipSslCertificateValidation: tls.skipCertificateValidation,
			},
			{ ...bounds, what: 'bill file' },
		);
	} catch (error) {
		if (error instanceof AnswerBoundError) {
			throw answerBoundError(
				this.getNode(),
				error,
				{ operation, itemIndex },
				'If the bill file is really this large, raise "Max File Size (MB)" in the options.',
			);
		}
		throw transportError(this.getNode(), error, { operation, itemIndex });
	}
	if (response.statusCode >= 300 && response.statusCode < 400) {
		throw redirectError(this.getNode(), response, downUrl, { operation, itemIndex });
	}
	const data = response.body;
	if (response.statusCode >= 400) {
		throw unreadableResponseError(
			this.getNode(),
			'the file server refused the download (is the check code still valid?)',
			{ httpCode: response.statusCode, body: data.subarray(0, 1000).toString('utf8') },
			{ operation, itemIndex },
		);
	}
	const disposition = String(response.headers['content-disposition'] ?? '');
	const named = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
	const fromPath = new URL(downUrl).pathname.split('/').filter(Boolean).pop();
	const contentType = response.headers['content-type'];
	return {
		data,
		mimeType: typeof contentType === 'string' ? contentType.split(';')[0] : undefined,
		fileName: named ?? fromPath ?? 'bill-records',
	};
}
