// Pieces the dashboard's forms share: reading a posted form (url-encoded, or multipart with one
// bounded file upload), showing a service's validation error on the form it came from, the
// "shown once" secret box, confirmation steps, and turning a foreign id into the 404 page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import { html, type SafeHtml, type Session } from '../sessions/index.ts';
import { csrfField } from './dashboard.layout.ts';
import { sendNotFound } from './not-found.ts';

/** Largest logo upload: its data: URL must stay under the OAuth app service's 256 KB limit. */
export const LOGO_MAX_BYTES = 180 * 1024;

export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
  /** Cut at LOGO_MAX_BYTES: the upload was larger. */
  tooLarge: boolean;
}

/** Every value posted under `name` (checkboxes and repeated fields give several). */
export function formValues(request: FastifyRequest, name: string): string[] {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body && typeof body === 'object' ? body[name] : undefined;
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === 'string');
}

/**
 * Reads a multipart/form-data post (a form with a file input): its text fields become the
 * request body, as for url-encoded forms, so `formField` and the CSRF check work unchanged.
 * Returns the uploaded files by field name (an empty file input is no file). A malformed or
 * oversized post gives `problem` instead of an exception, so the form can say what went wrong.
 */
export async function readUploadForm(
  request: FastifyRequest,
): Promise<{ files: Map<string, UploadedFile>; problem?: string }> {
  const files = new Map<string, UploadedFile>();
  if (!request.isMultipart()) return { files };
  const fields: Record<string, string | string[]> = {};
  try {
    for await (const part of request.parts({
      limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 100, fieldSize: 64 * 1024, parts: 101 },
    })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.filename || bytes.length > 0) {
          files.set(part.fieldname, { fileName: part.filename, bytes, tooLarge: part.file.truncated });
        }
        continue;
      }
      const value = typeof part.value === 'string' ? part.value : '';
      const previous = fields[part.fieldname];
      fields[part.fieldname] =
        previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
    }
  } catch (error) {
    request.log.info({ err: error }, 'unreadable form upload');
    request.body = fields;
    return { files, problem: 'The form could not be read (at most one file, up to 180 KB). Try again.' };
  }
  request.body = fields;
  return { files };
}

/** A service's validation failure (parameter_invalid and friends), or null for anything else. */
export function validationError(error: unknown): { param?: string; message: string } | null {
  if (!(error instanceof AppError)) return null;
  if (error.code === 'resource_not_found') return null;
  if (error.status !== 400 && error.code !== 'invalid_state_transition') return null;
  return { param: error.param, message: error.message };
}

/** The 404 page for an id of another account or environment (or none at all). */
export async function orNotFound<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  message: string,
  load: () => Promise<T>,
): Promise<{ found: true; value: T } | { found: false; reply: FastifyReply }> {
  try {
    return { found: true, value: await load() };
  } catch (error) {
    if (error instanceof AppError && error.code === 'resource_not_found') {
      return { found: false, reply: await sendNotFound(request, reply, session, message) };
    }
    throw error;
  }
}

/** The form's error summary, announced to screen readers. */
export function formError(error: string | undefined): SafeHtml | null {
  return error ? html`<div class="alert error" role="alert" id="form-error">${error}</div>` : null;
}

/** A secret shown once, with a copy button (sessions/assets/app.js does the copying). */
export function shownOnceSecret(options: { id: string; label: string; value: string; dataId?: string }): SafeHtml {
  return html`<label class="label" for="${options.id}">${options.label}</label>
  <div class="secret-box">
    <input id="${options.id}" type="text" readonly value="${options.value}" ${
      options.dataId ? html`data-id="${options.dataId}"` : null
    } spellcheck="false" autocomplete="off">
    <button type="button" class="secondary" data-copy-target="${options.id}" aria-describedby="${options.id}-status">Copy</button>
  </div>
  <p class="hint" id="${options.id}-status" aria-live="polite"></p>`;
}

/** A confirmation step before something that cannot be undone. */
export function confirmForm(
  session: Session,
  options: { action: string; title: string; warning: SafeHtml | string; button: string; cancelHref: string },
): SafeHtml {
  return html`<form class="panel" method="post" action="${options.action}">
  ${csrfField(session)}
  <h2>${options.title}</h2>
  <div class="alert warning">${options.warning}</div>
  <div class="actions">
    <button type="submit" class="danger">${options.button}</button>
    <a class="button secondary" href="${options.cancelHref}">Cancel</a>
  </div>
</form>`;
}
