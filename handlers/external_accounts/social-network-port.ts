// What the external accounts area (and the ads and audiences areas beside it) asks of a social network: the profile
// behind a handle, where its posts are served, how many people engaged with a post, the locale of its instant forms.
// The connect_external_account job (connect-external-account.ts) asks and writes the answer into this area's rows.
import { definePort } from '../../runtime/ports.js';

export interface NetworkPost {
  platform_post_id: string;
  media_type: 'image' | 'video';
  video_id: string | null;
  caption: string;
  /** days before the connection it was published */
  age_days: number;
}

export interface NetworkLeadForm {
  platform_form_id: string;
  name: string;
  privacy_policy_url: string;
  question_labels: string[];
  /** days before the connection it was made */
  age_days: number;
}

export interface NetworkProfile {
  external_id: string;
  name: string;
  url: string;
  profile_picture_url: string;
  verified: boolean;
  posts: NetworkPost[];
  /** a facebook page's instant forms */
  lead_forms: NetworkLeadForm[];
}

/** The profile, or why the network has none (the external account's error). */
export type ProfileLookup = { profile: NetworkProfile } | { missing: string };

/** Where the network serves a post: its media, its thumbnail, and the page a click leads to. */
export interface PostLinks {
  media_url: string;
  thumbnail_url: string;
  destination_url: string;
}

export interface SocialNetwork {
  lookUpProfile(platform: string, username: string): Promise<ProfileLookup>;
  postLinks(account: { platform: string; username: string }, post: { platform_post_id: string; media_type: 'image' | 'video' }): PostLinks;
  /** How many people the network reports engaging with a post. */
  postEngagements(platformPostId: string): number;
  /** The locale of every instant form on the network. */
  readonly formLocale: string;
}

export const socialNetwork = definePort<SocialNetwork>('social network');
