import { activityCatalogue } from '#shared/domain/activity-catalogue.ts';
import type { Language } from '#shared/domain/languages.ts';

export interface ActivityListing {
  id: string;
  name: string;
}

export interface ActivityCategoryListing extends ActivityListing {
  activities: ActivityListing[];
}

/**
 * The enabled categories with their enabled activities, named and sorted in the language asked.
 * Sorting goes through the language's collation, so "Élevage" sorts among the E's, not after Z.
 */
export function listActivities(language: Language): ActivityCategoryListing[] {
  const collator = new Intl.Collator(language, { sensitivity: 'base' });
  const byName = (a: ActivityListing, b: ActivityListing) => collator.compare(a.name, b.name);
  return activityCatalogue
    .filter((category) => category.enabled)
    .map((category) => ({
      id: category.id,
      name: category[language],
      activities: category.activities
        .filter((activity) => activity.enabled)
        .map((activity) => ({ id: activity.id, name: activity[language] }))
        .sort(byName),
    }))
    .sort(byName);
}

/** Whether a business may declare this activity: it exists, and it and its category are enabled. */
export function isActivityOffered(activityId: string): boolean {
  return activityCatalogue.some(
    (category) =>
      category.enabled &&
      category.activities.some((activity) => activity.enabled && activity.id === activityId),
  );
}
