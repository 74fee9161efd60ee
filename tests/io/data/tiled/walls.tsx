<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="walls" tilewidth="32" tileheight="32" tilecount="8" columns="0">
  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="1"><properties><property name="class" value="wall"/></properties></tile>
  <tile id="2"><properties><property name="class" value="water"/></properties></tile>
  <tile id="3"><properties><property name="class" value="S"/><property name="cost" type="float" value="2"/></properties></tile>
  <tile id="4"><properties><property name="walkable" type="bool" value="false"/></properties></tile>
  <tile id="5"><properties><property name="class" value="trees"/></properties></tile>
  <tile id="6"><properties><property name="cost" type="float" value="3.5"/></properties></tile>
  <tile id="7"><properties><property name="class" value="x"/></properties></tile>
</tileset>
