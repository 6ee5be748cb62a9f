import { describe, expect, it } from 'vitest';
import { isActivityOffered, listActivities } from '#shared/domain/activities.ts';
import { activityCatalogue } from '#shared/domain/activity-catalogue.ts';

describe('the activities catalogue', () => {
  it('gives every category and activity a unique id and both names', () => {
    const entries = activityCatalogue.flatMap((category) => [category, ...category.activities]);
    const ids = entries.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of entries) {
      expect(entry.fr.trim()).not.toBe('');
      expect(entry.en.trim()).not.toBe('');
    }
    for (const category of activityCatalogue) {
      for (const activity of category.activities)
        expect(activity.id.startsWith(`${category.id}.`)).toBe(true);
    }
  });

  it('sorts by the language’s collation: accented initials among their letter', () => {
    const french = listActivities('fr').map((category) => category.name);
    expect(french.indexOf('Éducation')).toBeGreaterThan(french.indexOf('Commerce'));
    expect(french.indexOf('Éducation')).toBeLessThan(french.indexOf('Hôtellerie et loisirs'));
    // A code-point sort would put "Éducation" after every unaccented name.
    expect([...french].sort()).not.toEqual(french);
  });

  it('leaves out disabled activities and disabled categories, and refuses them', () => {
    const listed = listActivities('en').flatMap((category) => category.activities.map((a) => a.id));
    expect(listed).not.toContain('services.lottery');
    expect(listed).not.toContain('mining.gold');
    expect(isActivityOffered('services.lottery')).toBe(false);
    expect(isActivityOffered('mining.gold')).toBe(false);
    expect(isActivityOffered('services')).toBe(false);
    expect(isActivityOffered('food.maquis')).toBe(true);
  });
});
