"""Simulation.picture: the particles drawn on the CPU by the CUDA renderer's reference passes,
in the data look and the material look, from the window's opening camera."""
import numpy as np
import pytest

BACKGROUND = np.array([18, 20, 26, 255], dtype=np.uint8)


def covered(image):
    """The pixels that show something other than the background, as (K, 4)."""
    mask = np.any(image != BACKGROUND, axis=-1)
    return image[mask]


def test_both_looks_draw_the_liquid_and_the_material_look_is_water(pl):
    sim = pl.Simulation(scene="dam_break", backend="cpu")
    data = sim.picture("data", 320, 180)
    water = sim.picture(look="material", width=320, height=180)
    for image in (data, water):
        assert image.shape == (180, 320, 4) and image.dtype == np.uint8
        assert len(covered(image)) > 2000
    assert np.any(data != water)
    pixels = covered(water).astype(float)
    # Water absorbs red first: the liquid reads blue-green, not grey or sand.
    assert pixels[:, 2].mean() > pixels[:, 0].mean() + 30


def test_grains_in_the_material_look_are_sand_or_glass_and_vary(pl):
    sand = pl.Simulation(preset="sand-like", particles=4000, backend="cpu")
    pixels = covered(sand.picture("material", 320, 240)).astype(float)
    assert len(pixels) > 1000
    assert pixels[:, 0].mean() > pixels[:, 2].mean() + 20  # warm, not blue
    assert pixels[:, 0].std() > 5  # shade, occlusion and tints, not one flat colour
    glass = pl.Simulation(preset="glass-beads", particles=4000, backend="cpu")
    pixels = covered(glass.picture("material", 320, 240)).astype(float)
    assert pixels[:, 2].mean() > pixels[:, 0].mean()  # pale and cool
    assert pixels.max() >= 250  # the sun's highlight on the beads


def test_a_bad_look_or_size_is_refused_with_the_reason(pl):
    sim = pl.Simulation(preset="classic", particles=512, backend="cpu")
    with pytest.raises(pl.Error, match="unknown look 'shiny'; use data or material"):
        sim.picture("shiny")
    with pytest.raises(pl.Error, match="5 x 5 is outside 16 to 4096"):
        sim.picture("data", 5, 5)
    with pytest.raises(TypeError):
        sim.picture("data", "wide", 100)
