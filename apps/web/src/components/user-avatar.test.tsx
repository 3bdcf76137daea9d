import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UserAvatar } from './user-avatar';

describe('UserAvatar', () => {
  it("shows the operator-set picture (photoURL)", () => {
    const { container } = render(<UserAvatar name="alice" photoURL="https://cdn.example.com/alice.png" size="large" />);
    expect(container.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/alice.png');
    expect(container).not.toHaveTextContent('A');
  });

  it('shows the initial without one, and when the picture cannot load', () => {
    const { container, rerender } = render(<UserAvatar name="alice" photoURL={null} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent('A');
    rerender(<UserAvatar name="alice" photoURL="/avatars/missing.png" />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent('A');
  });
});
