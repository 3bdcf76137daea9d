import { useState } from 'react';

interface UserAvatarProps {
  /** The name whose first letter stands in for a picture. */
  name: string;
  /** The operator-set avatar (the token's photoURL); none, or one that fails to load: the initial. */
  photoURL?: string | null;
  size?: 'large' | 'xl';
}

/** The player's avatar: their picture when the operator set one, else the initial of their name. */
export function UserAvatar({ name, photoURL, size }: UserAvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const className = size ? `avatar avatar--${size}` : 'avatar';
  if (photoURL && failed !== photoURL) {
    return (
      <span className={`${className} avatar--photo`} aria-hidden="true">
        <img src={photoURL} alt="" onError={() => setFailed(photoURL)} />
      </span>
    );
  }
  return (
    <span className={className} aria-hidden="true">
      {(name[0] ?? '?').toUpperCase()}
    </span>
  );
}
