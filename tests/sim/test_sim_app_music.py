"""Music app flows driven by taps on ui-tree nodes, with the typed state checked after."""

from __future__ import annotations

import numpy as np

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim.apps import music
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 0, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    drv = TreeDriver(phone)
    drv.tap(text="Music")
    return phone, drv


def test_search_artist_opens_artist_page_and_plays() -> None:
    phone, drv = _open()
    drv.tap(text="What do you want to listen to?")
    drv.type("Jay Chou\n")
    st = phone.state.music
    assert st.searches == ["Jay Chou"]
    assert drv.find(text="Artists") is not None and drv.find(text="Songs", cls="android.widget.TextView")
    drv.tap(rid="artist_name")
    assert st.viewed_artists == ["Jay Chou"]
    assert drv.find(text="Popular") is not None
    drv.tap(desc="Play")
    assert st.playing and st.now_playing is not None and st.now_playing.artist == "Jay Chou"
    # now-playing bar with a pause button; tapping the bar opens the full player
    drv.tap(rid="now_playing_bar")
    assert drv.find(rid="player_title").text == st.now_playing.title
    drv.tap(desc="Pause")
    assert not st.playing
    drv.tap(desc="Next")
    assert st.playing and st.now_playing.title == "Nocturne"
    phone.back()  # player -> artist page
    assert drv.find(text="Popular") is not None


def test_search_song_about_agent_and_play_it() -> None:
    phone, drv = _open()
    drv.tap(desc="Search")
    drv.type("agent\n")
    titles = [n.text for n in drv.find_all(rid="song_title")]
    assert "Secret Agent" in titles and "Agent of Love" in titles
    drv.tap(text="Agent of Love")
    st = phone.state.music
    assert st.now_playing is not None and st.now_playing.title == "Agent of Love" and st.playing
    assert drv.find(rid="now_playing_title").text == "Agent of Love"
    assert drv.find(desc="Pause") is not None
    # the Artists tab has none for this query; the Songs tab lists only songs
    drv.tap(text="Artists")
    assert drv.find(text="No artists found") is not None
    drv.tap(text="Songs", index=0)
    assert drv.find(rid="playlist_row") is None and len(drv.find_all(rid="song_row")) == 3


def test_relax_playlist_plays_from_home() -> None:
    phone, drv = _open()
    drv.tap(desc="Play Calm Evening")
    st = phone.state.music
    assert st.playlist == "Calm Evening" and st.playing
    assert st.now_playing is not None and music.is_relaxing(st.now_playing.track_id)
    drv.tap(text="Chill Lo-fi")
    assert drv.find(rid="playlist_title").text == "Chill Lo-fi"
    drv.tap(desc="Play")
    assert st.playlist == "Chill Lo-fi"
    phone.back()
    assert drv.find(text="Relax") is not None
    phone.back()
    assert phone.state.foreground is None


def test_unknown_query_and_back_from_search() -> None:
    phone, drv = _open()
    drv.tap(text="What do you want to listen to?")
    assert phone.keyboard_shown and drv.find(desc="Your Library") is None  # the keyboard covers the tabs
    phone.back()  # hides the keyboard first
    assert not phone.keyboard_shown and drv.find(desc="Your Library") is not None
    drv.tap(text="Search songs, artists or playlists")
    drv.type("qqzzxx\n")
    assert drv.find(contains="Couldn't find") is not None


def test_dark_theme() -> None:
    phone, drv = _open(dark=True)
    img = np.asarray(phone.screenshot().convert("L"))
    assert np.median(img) < 80
    assert drv.find(text="Relaxing Piano") is not None
