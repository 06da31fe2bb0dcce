// What can be exported: each resource's stored form (its statement and view, generated/resources.ts), the schema
// its rows are rendered as at the export's version, and the export scope it needs (spec/api.yaml).
import type { StoredResource } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import type { Export } from '../../generated/types.js';

export type ExportableName = Export['resource'];

export interface Exportable {
  scope: string;
  schema: string;
  stored: StoredResource<unknown>;
}

export const exportable: Record<ExportableName, Exportable> = {
  payments: { scope: 'payment:export', schema: 'Payment', stored: resources.Payment },
  memberships: { scope: 'membership:export', schema: 'Membership', stored: resources.Membership },
  members: { scope: 'member:export', schema: 'Member', stored: resources.Member },
  refunds: { scope: 'refund:export', schema: 'Refund', stored: resources.Refund },
  disputes: { scope: 'dispute:export', schema: 'Dispute', stored: resources.Dispute },
};

export const exportScope = (resource: string): string => exportable[resource as ExportableName].scope;
