// An ad group's budget belongs to it only when its campaign optimises budgets per group.
import { invalid } from '../../runtime/errors.js';
import type { AdCampaignRow } from '../../generated/rows.js';

export function checkGroupBudget(campaign: Pick<AdCampaignRow, 'budget_optimization'>, budgetAmount: number | null | undefined, budgetType: string | null | undefined): void {
  if (campaign.budget_optimization === 'ad_group') {
    if (budgetAmount == null) throw invalid('A group of a campaign with budget_optimization ad_group needs budget_amount', 'budget_amount');
    if (budgetType == null) throw invalid('A group of a campaign with budget_optimization ad_group needs budget_type', 'budget_type');
  } else if (budgetAmount != null || budgetType != null) {
    throw invalid('The campaign owns the budget (budget_optimization ad_campaign): a group takes none', budgetAmount != null ? 'budget_amount' : 'budget_type');
  }
}

export const audiencesOf = (a: { include?: string[]; exclude?: string[] } | undefined, current = { include: [] as string[], exclude: [] as string[] }) =>
  ({ include: a?.include ?? current.include, exclude: a?.exclude ?? current.exclude });
