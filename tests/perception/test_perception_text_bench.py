"""Ground truth of the perception benchmark: text under a clickable overlay is not a tap target."""

from mobile_agent.screensets.measure import parse_tree

_XML = """<?xml version="1.0"?>
<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]" clickable="false" text="">
    <node class="android.widget.LinearLayout" bounds="[0,300][1080,500]" clickable="true" text="">
      <node class="android.widget.TextView" bounds="[40,340][400,400]" clickable="false" text="Under the scrim"/>
    </node>
    <node class="android.widget.TextView" bounds="[40,1800][400,1860]" clickable="false" text="Beside the drawer"/>
    <node class="android.view.View" bounds="[0,0][1080,1500]" clickable="true" text=""/>
    <node class="android.widget.FrameLayout" bounds="[0,0][800,1500]" clickable="true" text="">
      <node class="android.widget.TextView" bounds="[40,340][300,400]" clickable="false" text="Drawer item"/>
    </node>
  </node>
</hierarchy>"""


def test_text_under_a_later_clickable_node_is_covered_and_its_own_parents_do_not_count() -> None:
    nodes = {n.text: n for n in parse_tree(_XML, 1080, 2400) if n.text}
    assert nodes["Under the scrim"].covered
    assert not nodes["Beside the drawer"].covered  # nothing drawn later lies over it
    assert not nodes["Drawer item"].covered  # its own clickable parent is drawn before it
