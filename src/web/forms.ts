// Reading what a browser sent (a query value, a posted form: url-encoded, or multipart with one
// bounded file upload), and the pieces every form shows: a service's validation error next to
// the field it names, and the "shown once" secret box.
import type { FastifyRequest } from 'fastify';
import { isCalendarDate } from '../core/dates.ts';
import { AppError } from '../core/errors.ts';
import { html, type SafeHtml } from './html.ts';

/** Largest file a form may upload (an OAuth app's logo: its data: URL must stay under 256 KB). */
export const UPLOAD_MAX_BYTES = 180 * 1024;

/** The limits of a multipart form: one file, a hundred fields. */
export const UPLOAD_LIMITS = { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 100, parts: 101 };

export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
  /** Cut at UPLOAD_MAX_BYTES: the upload was larger. */
  tooLarge: boolean;
}

export interface UploadForm {
  files: Map<string, UploadedFile>;
  /** Why the post could not be read (malformed, too many files), to be shown on the form. */
  problem?: string;
}

/** A query string value, '' when absent. */
export function queryValue(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** A list's `?page=`: 1 to 10,000, 1 for anything else. */
export function pageNumber(request: FastifyRequest): number {
  return Math.max(1, Math.min(10_000, Number.parseInt(queryValue(request, 'page'), 10) || 1));
}

/** A YYYY-MM-DD query value that is a real date, or '' (an impossible date filters nothing). */
export function dateValue(request: FastifyRequest, name: string): string {
  const value = queryValue(request, name);
  return isCalendarDate(value) ? value : '';
}

/** The query value if it is one of `allowed`, else undefined (a list filter's choice). */
export function choiceValue<T extends string>(request: FastifyRequest, name: string, allowed: readonly T[]) {
  const value = queryValue(request, name);
  return allowed.find((candidate) => candidate === value);
}

/** A field of a posted form, '' when absent (the first, when it was posted several times). */
export function formField(request: FastifyRequest, name: string): string {
  return formValues(request, name)[0] ?? '';
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
 * A page whose file may be larger than UPLOAD_MAX_BYTES (a catalog file) says so in its route's
 * `config.uploadMaxBytes`.
 */
export async function readUploadForm(request: FastifyRequest, maxBytes = UPLOAD_MAX_BYTES): Promise<UploadForm> {
  const files = new Map<string, UploadedFile>();
  const fields: Record<string, string | string[]> = {};
  try {
    for await (const part of request.parts({
      limits: { ...UPLOAD_LIMITS, fileSize: maxBytes, fieldSize: 64 * 1024 },
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
    return { files, problem: `The form could not be read (at most one file, up to ${maxBytes / 1024} KB). Try again.` };
  }
  request.body = fields;
  return { files };
}

/** What a form shows when a service refused its input: the message, and the field it is about. */
export interface FieldError {
  param?: string;
  message: string;
}

/** Conflicts a form can show next to a field: a taken name or code, a value something holds. */
const FORM_CONFLICTS = new Set(['invalid_state_transition', 'resource_already_exists', 'resource_in_use']);

/**
 * A service's refusal of the input (parameter_invalid and friends, and the conflicts above) as
 * the form shows it; anything else (not found, an outage, a bug) is thrown on, to the page's
 * error handler.
 */
export function fieldError(error: unknown): FieldError {
  const refused =
    error instanceof AppError &&
    error.code !== 'resource_not_found' &&
    (error.status === 400 || FORM_CONFLICTS.has(error.code));
  if (!refused) throw error;
  return { param: error.param, message: error.message };
}

/**
 * The error above the form: only one no field of the form is named by (`fields`); the others
 * are shown next to their field (`errorNextTo`).
 */
export function formError(error: FieldError | undefined, fields: readonly string[] = []): SafeHtml | null {
  if (!error || (error.param && fields.includes(error.param))) return null;
  return html`<div class="alert error" role="alert" id="form-error">${error.message}</div>`;
}

/** The attributes of an input (or fieldset) an error is about, pointing at its message. */
export function invalidIf(error: FieldError | undefined, name: string): SafeHtml | null {
  return error?.param === name ? html`aria-invalid="true" aria-errormessage="${name}-error"` : null;
}

/** The error's message under the field it is about (the field named `name`). */
export function errorNextTo(error: FieldError | undefined, name: string): SafeHtml | null {
  return error?.param === name
    ? html`<span class="field-error" id="${name}-error" role="alert">${error.message}</span>`
    : null;
}

/** A secret shown once, with a copy button (assets/app.js does the copying). */
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
