graph [
  label "2"
  name "weighted"
  node [
    id 0
    label "a"
    charge 0.5
    size 1
    kind "atom-a"
  ]
  node [
    id 1
    label "b"
    charge -1.0
    size 2
    kind "atom-b"
  ]
  node [
    id 2
    label "c"
    charge 0.25
    size 3
    kind "atom-c"
  ]
  node [
    id 3
    label "d"
    charge 2.0
    size 4
    kind "atom-d"
  ]
  node [
    id 4
    label "iso"
    charge 0.0
    size 5
    kind "atom-iso"
  ]
  edge [
    source 0
    target 1
    weight 2.5
    bond "double"
  ]
  edge [
    source 0
    target 2
    weight 0.5
  ]
  edge [
    source 1
    target 2
    weight 1.0
  ]
  edge [
    source 2
    target 3
    weight 3
  ]
  edge [
    source 3
    target 3
    weight 1.5
  ]
]
